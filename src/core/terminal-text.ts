/**
 * Text from an export or the sourcing service, made safe to print on a terminal: every control character becomes a
 * visible escape (`\x1b`, `\n`, `\r`, `\t`, `\x07`...), so an id carrying ESC sequences cannot clear the screen or
 * set the window title, and a name carrying a line break cannot print a forged line. The C0 and C1 controls, DEL, and
 * the bidirectional overrides and isolates (which reorder what a reader sees) are escaped; everything else, backslashes
 * included, is left as it is.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One field for one line of a terminal: every control character (line breaks too) as a visible escape. */
export function terminalText(value: unknown): string {
  return String(value).replace(CONTROL, visible);
}

/**
 * Several lines for a terminal: the line breaks between them are kept, every other control character is made
 * visible (a field inside a line should already have been passed through terminalText).
 */
export function terminalLines(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, visible);
}

/**
 * The secrets of the configuration: token files read and checked, each problem added to the caller's list without
 * ever showing a value; whatever is read goes to the log scrubber at once. Split from src/settings/config.ts (loadConfig).
 */
import { readFileSync } from 'node:fs';
import { registerSecret } from '../core/index.ts';

export function readTokenFile(path: string): string {
  return readFileSync(path, 'utf8').trim();
}

/**
 * Why a token cannot go in an Authorization header, or undefined when it can. A line break or control character
 * inside (two tokens pasted into one file, a CR from an editor) would make every call fail as if the service were
 * down; said as a configuration error instead, never showing the value.
 */
export function tokenProblem(token: string): string | undefined {
  const bad = /[\u0000-\u001f\u007f]/.exec(token);
  if (!bad) return undefined;
  const what =
    bad[0] === '\n' || bad[0] === '\r'
      ? 'a line break'
      : `a control character (U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`;
  return `holds ${what} at character ${bad.index + 1} of ${token.length} (only a trailing newline is allowed)`;
}

/** Why a file could not be read: its error code (ENOENT, EACCES...) or else the message. */
function unreadable(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/** A secret given as `name` or as `name`_FILE (not both): the value, the file's content, or undefined. */
export function secretOrFile(
  name: string,
  value: string | undefined,
  file: string | undefined,
  problems: string[],
): string | undefined {
  if (value && file) problems.push(`${name}_FILE: set either ${name} or ${name}_FILE, not both`);
  if (!file) return value;
  try {
    const v = readTokenFile(file);
    registerSecret(v);
    if (!v) problems.push(`${name}_FILE: ${file} is empty`);
    return v;
  } catch (err) {
    problems.push(`${name}_FILE: cannot read ${file}: ${unreadable(err)}`);
    return undefined;
  }
}

/** The bearer token of the sourcing service as read at start, from SOURCING_TOKEN or SOURCING_TOKEN_FILE. */
export function sourcingToken(
  value: string | undefined,
  file: string | undefined,
  problems: string[],
): string | undefined {
  if (value && file) problems.push('SOURCING_TOKEN_FILE: set either SOURCING_TOKEN or SOURCING_TOKEN_FILE, not both');
  let token = value;
  if (value) {
    const bad = tokenProblem(value.trim());
    if (bad) problems.push(`SOURCING_TOKEN: the token ${bad}`);
    else token = value.trim();
  }
  if (file) {
    try {
      token = readTokenFile(file);
      registerSecret(token);
      if (!token) problems.push(`SOURCING_TOKEN_FILE: ${file} is empty`);
      const bad = token ? tokenProblem(token) : undefined;
      if (bad) problems.push(`SOURCING_TOKEN_FILE: the token in ${file} ${bad}`);
    } catch (err) {
      problems.push(`SOURCING_TOKEN_FILE: cannot read ${file}: ${unreadable(err)}`);
    }
  }
  return token;
}

/** The token in HTTP_TOKEN_FILE when it is fit to use, else undefined (the problem said). */
export function httpTokenFromFile(
  value: string | undefined,
  file: string | undefined,
  problems: string[],
): string | undefined {
  if (value && file) problems.push('HTTP_TOKEN_FILE: set either HTTP_TOKEN or HTTP_TOKEN_FILE, not both');
  if (!file) return undefined;
  try {
    const t = readTokenFile(file);
    registerSecret(t);
    const bad = tokenProblem(t);
    if (bad) problems.push(`HTTP_TOKEN_FILE: the token in ${file} ${bad}`);
    else if (t.length < 16) problems.push(`HTTP_TOKEN_FILE: the token in ${file} must be at least 16 characters`);
    else return t;
  } catch (err) {
    problems.push(`HTTP_TOKEN_FILE: cannot read ${file}: ${unreadable(err)}`);
  }
  return undefined;
}

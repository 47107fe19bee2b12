/**
 * How a text file's bytes become characters, decided once per file from what the file says: its byte order mark,
 * else what its format declares (an HTML page's `<meta charset>`, an XML declaration's `encoding`), else a
 * detection that says it is one: the whole file valid UTF-8 is UTF-8; anything else is taken for Windows-1252 and the
 * report says it was guessed. What cannot be decoded with confidence is refused in one sentence naming the encoding:
 * a label no decoder knows, bytes that are not text in the declared encoding, a file that is neither UTF-8 nor
 * Windows-1252 (one of the five bytes Windows-1252 leaves undefined). Never read as something else.
 *
 * Labels are read as browsers read them (the WHATWG Encoding Standard, through TextDecoder): `latin1`, `ISO-8859-1`
 * and `us-ascii` are Windows-1252, whose letters in 0x80-0x9F (`€ – „ “`) are what files so labelled hold.
 */
import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { FileRefusedError } from '../../core/index.ts';

/** iconv-lite's name of an encoding: `utf8`, `utf16le`, `utf16be`, `windows1252`, `windows1250`, `shiftjis`... */
export type TextEncoding = string;

export interface TextDecision {
  encoding: TextEncoding;
  /** As people write it: `UTF-8`, `windows-1252`, `shift_jis`. */
  label: string;
  bomBytes: number;
  /** How it was decided: "its byte order mark", "its <meta charset>", "detected: ...", "guessed: ...". */
  how: string;
  /** True when nothing in the file says it: the report states the guess. */
  guessed: boolean;
}

/** What one pass over the whole file tells about its bytes. */
export interface TextProbe {
  /** Valid UTF-8 from start to end. */
  utf8: boolean;
  /** Offset of the first byte Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), if any. */
  not1252At?: number;
}

/** UTF-8, decided as `how` says. */
export function utf8(how: string, bomBytes = 0): TextDecision {
  return { encoding: 'utf8', label: 'UTF-8', bomBytes, how, guessed: false };
}

/** The byte order mark at the start of `head`, if any. */
export function byteOrderMark(head: Buffer): TextDecision | undefined {
  const how = 'its byte order mark';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return utf8(how, 3);
  if (head[0] === 0xff && head[1] === 0xfe)
    return { encoding: 'utf16le', label: 'UTF-16LE', bomBytes: 2, how, guessed: false };
  if (head[0] === 0xfe && head[1] === 0xff)
    return { encoding: 'utf16be', label: 'UTF-16BE', bomBytes: 2, how, guessed: false };
  return undefined;
}

/** The five bytes Windows-1252 leaves undefined: a file holding one is not Windows-1252 text. */
const NOT_1252 = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

/** One streamed pass over the whole file: is it UTF-8, and where is its first byte Windows-1252 leaves undefined. */
export async function probeText(path: string): Promise<TextProbe> {
  const dec = new TextDecoder('utf-8', { fatal: true });
  let utf8 = true;
  let not1252At: number | undefined;
  let offset = 0;
  const fh = await open(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      // pure ASCII chunks (the usual case) need neither check
      if (!isAscii(chunk)) {
        if (utf8)
          try {
            dec.decode(chunk, { stream: true });
          } catch {
            utf8 = false;
          }
        if (not1252At === undefined)
          for (const b of NOT_1252) {
            const at = chunk.indexOf(b);
            if (at >= 0) not1252At = Math.min(not1252At ?? Infinity, offset + at);
          }
      }
      offset += bytesRead;
    }
    if (utf8)
      try {
        dec.decode();
      } catch {
        utf8 = false;
      }
    return not1252At === undefined ? { utf8 } : { utf8, not1252At };
  } finally {
    await fh.close();
  }
}

/** A file that declares nothing: UTF-8 when it all is, else Windows-1252, said to be a guess. */
export function detectedEncoding(probe: TextProbe): TextDecision | { refuse: string } {
  if (probe.utf8) return utf8('detected: the whole file is valid UTF-8');
  if (probe.not1252At !== undefined)
    return {
      refuse: `is text in neither UTF-8 nor Windows-1252 (it has no byte order mark, and byte ${probe.not1252At.toLocaleString('en')} is valid in neither): save it as UTF-8`,
    };
  return {
    encoding: 'windows1252',
    label: 'windows-1252',
    bomBytes: 0,
    how: 'guessed: the file declares no encoding and is not valid UTF-8, so it is read as Windows-1252 (if its letters look wrong, save it as UTF-8)',
    guessed: true,
  };
}

/** The docs' words for bomOrDetected. */
export const BOM_OR_DETECTED =
  'its byte order mark (UTF-8, UTF-16 LE/BE); else UTF-8 when the whole file is valid UTF-8, else Windows-1252, reported as a guess; a file valid in neither is refused';

/** The encoding of a text format that declares none (CSV, SAP lists): its byte order mark, else detected. */
export async function bomOrDetected(
  head: Buffer,
  probe: () => Promise<TextProbe>,
): Promise<TextDecision | { refuse: string }> {
  return byteOrderMark(head) ?? detectedEncoding(await probe());
}

/**
 * The encoding a file declares (`where`: "its <meta charset>", "its XML declaration"), as a decision; a label no
 * decoder knows, or UTF-8 declared by a file that is not, refused.
 */
export async function declaredEncoding(
  label: string,
  where: string,
  probe: () => Promise<TextProbe>,
): Promise<TextDecision | { refuse: string }> {
  let canonical: string;
  try {
    canonical = new TextDecoder(label.trim()).encoding;
  } catch {
    canonical = '';
  }
  const encoding = canonical.replace(/[^a-z0-9]/g, '');
  if (canonical === '' || canonical === 'replacement' || !iconv.encodingExists(encoding))
    return {
      refuse: `declares the encoding "${label}" (${where}), which rfq-sync cannot decode: save it as UTF-8`,
    };
  const how = `${where} declares it`;
  if (encoding === 'utf8') {
    if (!(await probe()).utf8)
      return { refuse: `declares UTF-8 (${where}) but is not valid UTF-8: refused rather than read as something else` };
    return utf8(how);
  }
  return { encoding, label: canonical, bomBytes: 0, how, guessed: false };
}

/** UTF-16 may hold U+FFFD itself; in any other decoded text it marks bytes the encoding does not define. */
function checksReplacement(d: TextDecision): boolean {
  return d.encoding !== 'utf8' && !d.encoding.startsWith('utf16');
}

/** The sentence refusing a file whose bytes are not text in its encoding. */
export function notTextIn(d: TextDecision): string {
  return `holds bytes that are not ${d.label} text (${d.how}): refused rather than read as something else`;
}

/** The first bytes of a file as text, leniently (a character cut at the end of the head is no fault of the file). */
export function headText(head: Buffer, d: TextDecision): string {
  const b = head.subarray(d.bomBytes);
  return d.encoding === 'utf8' ? b.toString('utf8') : iconv.decode(b, d.encoding);
}

/** Bytes decoded whole (a file read into memory); bytes the encoding does not define refuse the file. */
export function decodeBytes(buf: Buffer, d: TextDecision, file: string): string {
  if (d.encoding === 'utf8') return buf.toString('utf8');
  const text = iconv.decode(buf, d.encoding);
  if (checksReplacement(d) && text.includes('\uFFFD')) throw new FileRefusedError(file, notTextIn(d));
  return text;
}

/**
 * The file's text from its byte order mark on, streamed. UTF-8 by Node's own decoder (a character split between
 * chunks is kept whole, as iconv does; iconv's stream adds a Transform and its copies on every chunk, 0.1 s of a
 * 100,000-row page); else iconv-lite, each chunk checked for bytes the encoding does not define.
 */
export function decodedStream(path: string, d: TextDecision, file: string): Readable {
  const start = d.bomBytes;
  if (d.encoding === 'utf8') return createReadStream(path, { start, highWaterMark: 256 * 1024, encoding: 'utf8' });
  const raw = createReadStream(path, { start, highWaterMark: 256 * 1024 });
  const decoder = iconv.getDecoder(d.encoding);
  const check = checksReplacement(d);
  const out = new Transform({
    encoding: 'utf8',
    transform(chunk: Buffer, _enc, done) {
      const text = decoder.write(chunk);
      if (check && text.includes('\uFFFD')) done(new FileRefusedError(file, notTextIn(d)));
      else done(null, text);
    },
    flush(done) {
      done(null, decoder.end() ?? '');
    },
  });
  raw.on('error', (err) => out.destroy(err));
  return raw.pipe(out);
}

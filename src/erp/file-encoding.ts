/**
 * The character encodings an ERP reads (iconv-lite): UTF-8 with or without a byte-order mark, Windows-1252 (SAP GUI
 * uploads, older Windows tools), ISO-8859-1, UTF-16LE with its mark (Excel's "Unicode text"). A character the
 * encoding cannot hold is never written as a wrong byte silently: it is spelt without its accent where that exists
 * (`ł` cannot, `ő` becomes `o`), else as `?`, and the render reports each such text.
 */
import iconv from 'iconv-lite';

export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252' | 'iso-8859-1' | 'utf-16le-bom';

const SINGLE_BYTE = new Map<string, Set<number>>();

/** The code points a single-byte encoding holds. */
function repertoire(encoding: 'windows-1252' | 'iso-8859-1'): Set<number> {
  let set = SINGLE_BYTE.get(encoding);
  if (!set) {
    set = new Set<number>();
    const text = iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), encoding);
    for (const ch of text) if (ch !== '\uFFFD') set.add(ch.codePointAt(0)!);
    SINGLE_BYTE.set(encoding, set);
  }
  return set;
}

/** `text` as the encoding can hold it, and whether anything had to change. */
export function fitEncoding(text: string, encoding: FileEncoding): { text: string; changed: boolean } {
  if (encoding !== 'windows-1252' && encoding !== 'iso-8859-1') return { text, changed: false };
  const can = repertoire(encoding);
  let out = '';
  let changed = false;
  for (const ch of text) {
    if (can.has(ch.codePointAt(0)!)) {
      out += ch;
      continue;
    }
    changed = true;
    const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += [...bare].every((c) => can.has(c.codePointAt(0)!)) && bare !== '' ? bare : '?';
  }
  return { text: out, changed };
}

/** The bytes of `text` in the encoding, with its byte-order mark where it has one. */
export function encodeText(text: string, encoding: FileEncoding): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le-bom':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'windows-1252':
    case 'iso-8859-1':
      return iconv.encode(text, encoding);
  }
}

/**
 * What a binary .xls says about its own text, read from its workbook stream's records ([MS-XLS]; BIFF5 in
 * OpenOffice's "Excel File Format" 5.x): its version (the BOF record: BIFF5/7 for Excel 5 and 95, BIFF8 for Excel
 * 97-2003), its CODEPAGE, and, for BIFF5/7, whose text is stored in that codepage, the sheet names and text cells
 * decoded by it. BIFF8 stores its text as UTF-16 (or its first 256 code points), which SheetJS reads right.
 *
 * Codepages are those BIFF writers use: 1250-1258, 874, 932, 936, 949, 950, 10000 (Mac Roman), 1200 (UTF-16) and the
 * DOS ones (437, 850, ...), decoded by iconv-lite. A codepage no decoder knows, and text that is not text in the
 * declared codepage (bytes it leaves undefined; UTF-16 whose bytes are not two per character), refuse the file in
 * one sentence naming the codepage: a codepage that lies is never read as something else.
 */
import iconv from 'iconv-lite';

export type BiffVersion = 'BIFF5' | 'BIFF8';

/** One BIFF5/7 text cell, decoded: its row and column (0-based) and text. */
export interface BiffText {
  row: number;
  col: number;
  text: string;
}

export interface BiffSheet {
  /** The name as SheetJS reads it (its bytes one for one as characters, for BIFF5/7), to find its sheet. */
  rawName: string;
  /** The name decoded by the codepage. */
  name: string;
  /** BIFF5/7: the sheet's text cells decoded by the codepage. */
  texts: BiffText[];
}

/** The workbook globals: version, CODEPAGE and the sheets' records. */
export interface BiffGlobals {
  version: BiffVersion;
  /** The CODEPAGE record's value; BIFF5/7 without one is Windows-1252, as Excel and LibreOffice take it. */
  codepage: number;
  sheets: Array<{ offset: number; cch: number; raw: Buffer }>;
}

const BOF = 0x0809;
const EOF = 0x000a;
const CODEPAGE = 0x0042;
const BOUNDSHEET = 0x0085;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const FORMULA = 0x0006;
const STRING = 0x0207;

/** The codepages' common names, for messages. */
const CODEPAGE_NAMES: Record<number, string> = {
  874: 'Windows-874, Thai',
  932: 'Shift-JIS',
  936: 'GBK',
  949: 'Korean, Wansung',
  950: 'Big5',
  1200: 'UTF-16',
  10000: 'Mac Roman',
  32768: 'Mac Roman',
  32769: 'Windows-1252',
};

/** "codepage 1250 (Windows-1250)"; a codepage without a common name by its number alone. */
export function codepageName(cp: number): string {
  const name =
    CODEPAGE_NAMES[cp] ?? (cp >= 1250 && cp <= 1258 ? `Windows-${cp}` : codepageEncoding(cp) ? `DOS ${cp}` : undefined);
  return name === undefined ? `codepage ${cp}` : `codepage ${cp} (${name})`;
}

/** iconv-lite's encoding for a BIFF codepage; undefined when no decoder knows it. */
export function codepageEncoding(cp: number): string | undefined {
  const name =
    cp === 1200
      ? 'utf16le'
      : cp === 10000 || cp === 32768
        ? 'macintosh'
        : cp === 32769 || cp === 367
          ? 'windows1252'
          : cp >= 1250 && cp <= 1258
            ? `windows${cp}`
            : cp === 874
              ? 'windows874'
              : `cp${cp}`;
  return iconv.encodingExists(name) ? name : undefined;
}

interface Rec {
  type: number;
  body: Buffer;
  /** Offset of the next record. */
  next: number;
}

function recordAt(stream: Buffer, at: number): Rec | undefined {
  if (at + 4 > stream.length) return undefined;
  const type = stream.readUInt16LE(at);
  const len = stream.readUInt16LE(at + 2);
  const end = Math.min(stream.length, at + 4 + len);
  return { type, body: stream.subarray(at + 4, end), next: at + 4 + len };
}

/** The version and CODEPAGE of a workbook stream, and where its sheets start (the globals are its first records). */
export function biffGlobals(stream: Buffer): BiffGlobals {
  const bof = recordAt(stream, 0);
  const version: BiffVersion = bof?.type === BOF && bof.body.readUInt16LE(0) === 0x0600 ? 'BIFF8' : 'BIFF5';
  let codepage = 1252;
  const sheets: BiffGlobals['sheets'] = [];
  for (let r = recordAt(stream, bof?.next ?? 0); r && r.type !== EOF; r = recordAt(stream, r.next)) {
    if (r.type === CODEPAGE && r.body.length >= 2) codepage = r.body.readUInt16LE(0);
    else if (r.type === BOUNDSHEET && r.body.length >= 7)
      sheets.push({ offset: r.body.readUInt32LE(0), cch: r.body[6]!, raw: r.body.subarray(7) });
  }
  return { version, codepage, sheets };
}

/**
 * A BIFF5/7 workbook's sheet names and text cells decoded by its codepage (which codepageEncoding knows). Throws
 * `refuse(why)` for text that is not text in that codepage.
 */
export function decodedSheets(stream: Buffer, g: BiffGlobals, refuse: (why: string) => Error): BiffSheet[] {
  const d = decoderFor(g.codepage, refuse);
  return g.sheets.map((b) => ({
    rawName: b.raw.toString('latin1', 0, b.cch),
    name: d.decode(b.raw, b.cch, true),
    texts: sheetTexts(stream, b.offset, d),
  }));
}

/**
 * Text in the codepage: `cch` characters; in UTF-16 (1200) two bytes each, in any other codepage `cch` bytes (a
 * byte string: a double-byte character counts two). Text the codepage does not define (U+FFFD from the decoder), or
 * UTF-16 whose bytes are not two per character, throws.
 */
interface Decoder {
  /** `bytes`: the text, and whatever follows it in its record unless `exact`. */
  decode(bytes: Buffer, cch: number, exact: boolean): string;
}

function decoderFor(codepage: number, refuse: (why: string) => Error): Decoder {
  const encoding = codepageEncoding(codepage)!;
  if (codepage === 1200)
    return {
      decode(bytes, cch, exact) {
        if (bytes.length < 2 * cch || (exact && bytes.length !== 2 * cch))
          throw refuse('its text is not two bytes a character');
        return bytes.toString('utf16le', 0, 2 * cch);
      },
    };
  return {
    decode(bytes, cch, exact) {
      if (bytes.length < cch || (exact && bytes.length !== cch)) throw refuse('its text is not one byte a character');
      const text = iconv.decode(bytes.subarray(0, cch), encoding);
      if (text.includes('\uFFFD')) throw refuse('its text holds bytes the codepage does not define');
      return text;
    },
  };
}

/** The text cells of the sheet whose BOF is at `offset`: labels, rich-text labels and formulas' text results. */
function sheetTexts(stream: Buffer, offset: number, d: Decoder): BiffText[] {
  const out: BiffText[] = [];
  let formula: { row: number; col: number } | undefined;
  const first = recordAt(stream, offset);
  if (first?.type !== BOF) return out;
  for (let r = recordAt(stream, first.next); r && r.type !== EOF; r = recordAt(stream, r.next)) {
    const b = r.body;
    if ((r.type === LABEL || r.type === RSTRING) && b.length >= 8) {
      // a label's text is the rest of its record; a rich label's formatting runs follow its text
      const text = d.decode(b.subarray(8), b.readUInt16LE(6), r.type === LABEL);
      out.push({ row: b.readUInt16LE(0), col: b.readUInt16LE(2), text });
    } else if (r.type === FORMULA && b.length >= 4) formula = { row: b.readUInt16LE(0), col: b.readUInt16LE(2) };
    else if (r.type === STRING && formula && b.length >= 2) {
      out.push({ ...formula, text: d.decode(b.subarray(2), b.readUInt16LE(0), true) });
      formula = undefined;
    }
  }
  return out;
}

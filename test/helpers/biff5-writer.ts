/**
 * A writer of Excel 5 and Excel 95 workbooks (BIFF5 and BIFF7, the `Book` stream of an OLE2 container), as old ERP
 * and report writers make them: a CODEPAGE record, and each text cell a LABEL record whose bytes are in that codepage
 * (in UTF-16 for 1200, two bytes a character). Written record by record from OpenOffice's "Excel File Format"
 * description (BOF, CODEPAGE, FONT, XF, BOUNDSHEET, EOF; per sheet BOF, DIMENSIONS, LABEL/NUMBER, EOF); SheetJS' own
 * BIFF5 writer declares 1252 always and writes `_` for every other letter. The container is SheetJS' CFB writer.
 * `bytes` writes text in another encoding than the one declared (a CODEPAGE that lies).
 */
import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';

export interface Biff5Book {
  /** 5: Excel 5.0 (BIFF5); 95: Excel 95 (BIFF7). */
  excel: 5 | 95;
  codepage: number;
  sheets: Array<{ name: string; rows: ReadonlyArray<ReadonlyArray<string | number>> }>;
  /** The bytes of a text: by default the codepage's (UTF-16LE for 1200). */
  bytes?: (text: string) => Buffer;
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => b.writeUInt16LE(v, 2 * i));
  return b;
}

function record(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type, body.length), body]);
}

/** The codepage's bytes of a text, and its length as BIFF counts it (characters; bytes for a byte string). */
function encoder(book: Biff5Book): (text: string) => { cch: number; bytes: Buffer } {
  if (book.bytes) return (t) => ({ cch: book.bytes!(t).length, bytes: book.bytes!(t) });
  if (book.codepage === 1200) return (t) => ({ cch: t.length, bytes: Buffer.from(t, 'utf16le') });
  const name = book.codepage === 10000 ? 'macintosh' : `cp${book.codepage}`;
  return (t) => {
    const bytes = iconv.encode(t, name);
    return { cch: bytes.length, bytes };
  };
}

export function writeBiff5(book: Biff5Book): Buffer {
  const text = encoder(book);
  const [build, year] = book.excel === 5 ? [0x096c, 0x07c9] : [0x0dbb, 0x07cc];
  const bof = (type: number): Buffer => record(0x0809, u16(0x0500, type, build, year));
  const sheets = book.sheets.map((s) => {
    const cells: Buffer[] = [];
    s.rows.forEach((row, r) =>
      row.forEach((v, c) => {
        if (typeof v === 'number') {
          const b = Buffer.alloc(14);
          b.writeUInt16LE(r, 0);
          b.writeUInt16LE(c, 2);
          b.writeUInt16LE(15, 4); // the default cell format
          b.writeDoubleLE(v, 6);
          cells.push(record(0x0203, b));
        } else if (v !== '') {
          const t = text(v);
          cells.push(record(0x0204, Buffer.concat([u16(r, c, 15, t.cch), t.bytes])));
        }
      }),
    );
    const width = Math.max(0, ...s.rows.map((r) => r.length));
    return Buffer.concat([
      bof(0x10),
      record(0x0200, u16(0, s.rows.length, 0, width, 0)),
      ...cells,
      record(0x000a, Buffer.alloc(0)),
    ]);
  });
  const font = record(
    0x0031,
    Buffer.concat([u16(200, 0, 0x7fff, 400, 0), Buffer.from([0, 0, 0, 0, 5]), Buffer.from('Arial')]),
  );
  // 15 style formats and one cell format (the 16th, index 15), all of the first font and the General number format
  const xfs = Array.from({ length: 16 }, (_, i) =>
    record(0x00e0, Buffer.concat([u16(0, 0, i < 15 ? 0xfff5 : 0x0001, 0x20c0), Buffer.alloc(8)])),
  );
  const globals = (offsets: number[]): Buffer =>
    Buffer.concat([
      bof(0x05),
      record(0x0042, u16(book.codepage)),
      ...Array.from({ length: 5 }, () => font),
      ...xfs,
      ...book.sheets.map((s, i) => {
        const name = text(s.name);
        const at = Buffer.alloc(4);
        at.writeUInt32LE(offsets[i] ?? 0);
        return record(0x0085, Buffer.concat([at, u16(0), Buffer.from([name.cch]), name.bytes]));
      }),
      record(0x000a, Buffer.alloc(0)),
    ]);
  const start = globals([]).length;
  const offsets = sheets.map((_, i) => start + sheets.slice(0, i).reduce((n, s) => n + s.length, 0));
  const cfb = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(cfb, '/Book', Buffer.concat([globals(offsets), ...sheets]));
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

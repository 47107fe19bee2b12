/**
 * Old binary .xls (BIFF5/7 for Excel 5 and 95, BIFF8 for Excel 97-2003; SAP's "XXL" export), in an OLE2 container,
 * parsed whole in memory by SheetJS (sheetjs-reader.ts). The container is opened here and SheetJS is handed its
 * workbook stream. A BIFF5/7 file stores its text in the codepage its CODEPAGE record declares, which SheetJS reads
 * as Latin-1 whatever the record says: its sheet names and text cells are decoded here by that codepage
 * (biff-records.ts) and put in place of SheetJS' own. BIFF8's text is UTF-16.
 */
import { readFile } from 'node:fs/promises';
import type { WorkBook } from '@e965/xlsx';
import { FileRefusedError } from '../../core/index.ts';
import {
  biffGlobals,
  codepageEncoding,
  codepageName,
  decodedSheets,
  type BiffGlobals,
  type BiffSheet,
} from './biff-records.ts';
import type { FileFormat, SheetLimit } from './format.ts';
import { parseWorkbook, workbookSheets, workbookSource, type LoadedWorkbook } from './sheetjs-reader.ts';

const BIFF8_SHEET: SheetLimit = { what: 'an .xls sheet (BIFF8, Excel 97-2003)', rows: 65_536, columns: 256 };
const BIFF5_SHEET: SheetLimit = { what: 'an .xls sheet (BIFF5/7, Excel 5 and 95)', rows: 16_384, columns: 256 };
const CORRUPT = 'a corrupt binary Excel workbook (.xls)';

/** The workbook stream of the OLE2 container (`Workbook`: BIFF8; `Book`: BIFF5/7). */
async function workbookStream(path: string, file: string): Promise<Buffer> {
  const { CFB } = await import('@e965/xlsx');
  let entry;
  try {
    const cfb = CFB.read(await readFile(path), { type: 'buffer' });
    entry = CFB.find(cfb, 'Workbook') ?? CFB.find(cfb, 'Book');
  } catch (err) {
    throw new FileRefusedError(file, `is ${CORRUPT} (${(err as Error).message})`, { cause: err });
  }
  if (!entry?.content) throw new FileRefusedError(file, `is ${CORRUPT} (Cannot find Workbook stream)`);
  const c = entry.content as Uint8Array;
  return Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}

/** A BIFF5/7 workbook's text decoded by its codepage; a codepage that cannot be decoded, or that lies, refused. */
function decodedText(stream: Buffer, g: BiffGlobals, file: string): BiffSheet[] {
  const declared = `${codepageName(g.codepage)}, as its CODEPAGE record declares`;
  if (!codepageEncoding(g.codepage))
    throw new FileRefusedError(file, `is an Excel 5/95 workbook in ${declared}, which rfq-sync cannot decode`);
  return decodedSheets(
    stream,
    g,
    (why) =>
      new FileRefusedError(
        file,
        `is an Excel 5/95 workbook whose text is not in ${declared} (${why}): refused rather than read as something else`,
      ),
  );
}

/** SheetJS' BIFF5/7 sheet names and text cells replaced by the codepage's. */
function putDecodedText(book: WorkBook, decoded: readonly BiffSheet[]): void {
  const byRaw = new Map(decoded.map((s) => [s.rawName, s]));
  book.SheetNames = book.SheetNames.map((raw, i) => {
    const decoded = byRaw.get(raw);
    const ws = book.Sheets[raw];
    if (!decoded || !ws) return raw;
    delete book.Sheets[raw];
    book.Sheets[decoded.name] = ws;
    const props = book.Workbook?.Sheets?.[i];
    if (props) props.name = decoded.name;
    const data = (ws['!data'] ??= []) as Array<Array<{ t: string; v?: unknown } | undefined> | undefined>;
    for (const t of decoded.texts) {
      const row = (data[t.row] ??= []);
      row[t.col] = { ...row[t.col], t: 's', v: t.text };
    }
    return decoded.name;
  });
}

export async function loadXls(path: string, file: string): Promise<LoadedWorkbook> {
  const stream = await workbookStream(path, file);
  const g = biffGlobals(stream);
  const decoded = g.version === 'BIFF5' ? decodedText(stream, g, file) : undefined;
  const book = await parseWorkbook(stream, CORRUPT, file);
  if (decoded) putDecodedText(book, decoded);
  const sheets = workbookSheets(book, file, 'a binary Excel workbook (.xls)');
  return { sheets, book, limit: g.version === 'BIFF8' ? BIFF8_SHEET : BIFF5_SHEET };
}

export const xlsFormat: FileFormat = {
  kind: 'xls',
  name: 'binary Excel workbook (.xls)',
  container: 'ole2',
  recognize: (e) => e.container === 'ole2' && e.streams.some((n) => /^(workbook|book)$/i.test(n)),
  inMemory: { expansion: 28, of: 'file', called: 'an old binary Excel file (.xls)' },
  limits: [BIFF8_SHEET, BIFF5_SHEET],
  doc: {
    title: 'binary `.xls`: BIFF8 (Excel 97-2003, SAP "XXL"), BIFF5/7 (Excel 5 and 95)',
    recognisedBy:
      'an OLE2 container (`D0 CF 11 E0 A1 B1 1A E1`) holding a `Workbook` or `Book` stream (one holding `EncryptedPackage` is a password-protected workbook, refused)',
    read: 'whole, in memory (SheetJS)',
    encodings:
      'BIFF8: UTF-16 (the format has no other); BIFF5/7: the codepage its CODEPAGE record declares: 1250-1258, 874, 932, 936, 949, 950, 10000 (Mac Roman), 1200 (UTF-16), the DOS ones (437, 850, ...)',
  },
  open: (f) => workbookSource(() => loadXls(f.path, f.file)),
};

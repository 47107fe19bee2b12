/**
 * Streamed xlsx rows. The package (xlsx-package.ts) says which part holds which sheet, in which order; exceljs'
 * parsers read the styles, the shared strings and the sheet's rows from those parts, opened by name in that order
 * whatever order the writer zipped them in. Shared strings and styles are cached (else strings come back as indexes
 * and dates as numbers); rich text is flattened to its text, formula cells give their cached result (a formula never
 * computed by Excel has none: the cell is empty), hyperlinks their text, error cells their code (#N/A), inline
 * strings (openpyxl writes no shared strings) their text. Date-formatted cells arrive as Date whose UTC fields hold
 * the workbook's wall clock (date-format.ts), with the time of day their format shows (cell-time.ts); rows hidden in
 * the sheet are marked. The sheet is the one named, or the first in tab order with any value.
 *
 * Failures reach the caller as errors of the read, never as uncaught exceptions or a read that hangs: the file gone
 * or unreadable (the zip's open fails), corrupt deflate data (the part's inflate stream errs, and the XML parser's
 * loop over it rejects), XML that breaks part-way (the parser's error).
 */
import { Readable } from 'node:stream';
import type { stream as StreamNamespace } from 'exceljs';
import { loadExcelJS } from '../../core/index.ts';
import { dateAsShown } from './cell-time.ts';
import type { CellValue } from './format.ts';
import { firstWithRows, sheetsToTry } from './sheet-choice.ts';
import { openXlsxPackage, type SheetRef, type XlsxPackage } from './xlsx-package.ts';

type StreamApi = typeof StreamNamespace;

export interface XlsxRow {
  /** 1-based row number as Excel shows it. */
  row: number;
  cells: CellValue[];
  sheet: string;
  /** Hidden in the sheet (`<row hidden="1">`: by a filter or by hand). */
  hidden?: true;
}

function flatten(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('formula' in o || 'sharedFormula' in o) return 'result' in o ? flatten(o.result) : null;
    if ('error' in o) return String(o.error);
    if ('text' in o) return flatten(o.text);
    if ('hyperlink' in o) return String(o.hyperlink);
  }
  return String(v);
}

function isEmptyRow(cells: CellValue[]): boolean {
  return cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));
}

/** Sheets are yielded in batches of this many rows. */
const BATCH = 500;

/**
 * The rows of the sheet named `sheetName` (any case), or of the first sheet in tab order that holds any value (visible
 * sheets before hidden ones), from its first non-empty row on.
 */
export async function* readXlsxRows(path: string, sheetName?: string): AsyncGenerator<XlsxRow[]> {
  const { stream } = await loadExcelJS();
  const pkg = await openXlsxPackage(path);
  try {
    const candidates = sheetsToTry(pkg.sheets, sheetName);
    const book = await prepareWorkbook(stream, pkg);
    yield* firstWithRows(candidates, (sheet) => sheetRows(book, pkg, sheet));
  } finally {
    pkg.close();
  }
}

/** The sheets of a workbook in tab order, with their visibility (no sheet is read for them). */
export async function listXlsxSheets(path: string): Promise<Array<{ name: string; state: string }>> {
  const pkg = await openXlsxPackage(path);
  pkg.close();
  return pkg.sheets.map(({ name, state }) => ({ name, state }));
}

/**
 * What exceljs' WorkbookReader keeps for its sheets (styles, shared strings, the 1904 flag), filled from the parts
 * themselves, wherever they are in the zip. Its parsing methods are used as they are (exceljs 4.4); only the order
 * in which the parts are read is ours.
 */
interface WorkbookInternals {
  properties: { model: { date1904: boolean } };
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(entry: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: WorksheetIterable }>;
}
type WorksheetIterable = AsyncIterable<{
  number: number;
  values: unknown;
  getCell(col: number): { numFmt?: string };
}>;

async function prepareWorkbook(stream: StreamApi, pkg: XlsxPackage): Promise<WorkbookInternals> {
  const book = new stream.xlsx.WorkbookReader(undefined as never, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as WorkbookInternals;
  book.properties = { model: { date1904: pkg.date1904 } };
  // their parsers listen to a stream's events
  if (pkg.stylesPart) await book._parseStyles(Readable.from(partText(await pkg.open(pkg.stylesPart))));
  if (pkg.sharedStringsPart)
    for await (const _ of book._parseSharedStrings(Readable.from(partText(await pkg.open(pkg.sharedStringsPart)))));
  return book;
}

/**
 * A part's XML as text, for exceljs' parsers: decoded here as one stream, as exceljs decodes each chunk on its own
 * (a character whose bytes two chunks share came out as U+FFFD: in a LibreOffice workbook of 20,000 rows of Polish
 * text, 7 rows). `tap` sees each chunk's bytes first.
 */
async function* partText(input: AsyncIterable<Buffer>, tap?: (chunk: Buffer) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of input) {
    tap?.(chunk);
    yield decoder.decode(chunk, { stream: true });
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/**
 * A tap finding the row numbers of `<row ... hidden="1">` tags (hidden by a filter or by hand; exceljs' streaming
 * reader drops the attribute) as the sheet's XML passes: each chunk searched for `hidden=`, a tag cut between two
 * chunks put together.
 */
function hiddenRowTap(hidden: Set<number>): (chunk: Buffer) => void {
  let tail: Buffer | undefined;
  return (chunk) => {
    let from = 0;
    if (tail) {
      const end = chunk.indexOf(0x3e);
      const tag = Buffer.concat([tail, chunk.subarray(0, end < 0 ? chunk.length : end + 1)]);
      tail = end < 0 && tag.length < 64 * 1024 ? tag : undefined;
      if (end >= 0) hiddenRow(tag.toString('latin1'), hidden);
      from = end < 0 ? chunk.length : end + 1;
    }
    for (let at = chunk.indexOf('hidden=', from); at >= 0; at = chunk.indexOf('hidden=', at + 7)) {
      const lt = chunk.lastIndexOf(0x3c, at);
      const gt = chunk.indexOf(0x3e, at);
      if (lt >= from && gt >= 0) hiddenRow(chunk.toString('latin1', lt, gt + 1), hidden);
    }
    const last = chunk.lastIndexOf(0x3c);
    if (last >= from && chunk.indexOf(0x3e, last) < 0) tail = chunk.subarray(last);
  };
}

function hiddenRow(tag: string, hidden: Set<number>): void {
  if (!/^<row\s/.test(tag) || !/\shidden="(1|true)"/.test(tag)) return;
  const r = /\sr="(\d+)"/.exec(tag);
  if (r) hidden.add(Number(r[1]));
}

/** One sheet's rows from its first non-empty one, in batches. */
async function* sheetRows(book: WorkbookInternals, pkg: XlsxPackage, sheet: SheetRef): AsyncGenerator<XlsxRow[]> {
  const input = await pkg.open(sheet.part);
  const hidden = new Set<number>();
  try {
    let ws: WorksheetIterable | undefined;
    for (const ev of book._parseWorksheet(partText(input, hiddenRowTap(hidden)), '1')) ws = ev.value;
    let started = false;
    let batch: XlsxRow[] = [];
    for await (const r of ws!) {
      const values = r.values as unknown[];
      const cells: CellValue[] = [];
      for (let i = 1; i < values.length; i++) {
        const v = values[i];
        cells.push(v instanceof Date ? dateAsShown(v, { numFmt: r.getCell(i).numFmt }) : flatten(v));
      }
      if (!started) {
        if (isEmptyRow(cells)) continue;
        started = true;
      }
      const row: XlsxRow = { row: r.number, cells, sheet: sheet.name };
      if (hidden.has(r.number)) row.hidden = true;
      batch.push(row);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    input.destroy();
  }
}

/**
 * Workbooks parsed whole in memory by SheetJS CE (`@e965/xlsx` 0.20.3, see docs/development.md): old binary .xls
 * (xls.ts), XML Spreadsheet 2003 (xml2003.ts) and OpenDocument .ods (ods.ts). Each format module hands over bytes
 * SheetJS reads right (decoded by the format's own encoding rules) and what SheetJS does not report (hidden .ods
 * tables and rows, BIFF5 text); the sniffer has held the file within MAX_IN_MEMORY_READ_BYTES.
 *
 * Rows come as the xlsx reader gives them: typed cells (text as written, numbers as numbers, date-formatted cells
 * as Date whose UTC fields hold the workbook's wall clock, with the time of day their format shows (cell-time.ts),
 * booleans, error cells as their code such as `#N/A`);
 * a formula gives its cached result (none: an empty cell); a merged range its value in its top-left cell; a row
 * hidden in the sheet (by a filter or by hand) is marked. The sheet is chosen as sheet-choice.ts says.
 */
import type { CellObject, WorkBook } from '@e965/xlsx';
import { FileRefusedError } from '../../core/index.ts';
import type { HeadRow } from './format.ts';
import { dateAsShown } from './cell-time.ts';
import type { CellValue, RowSource, SheetLimit } from './format.ts';
import { firstWithRows, sheetsToTry, triedOrder } from './sheet-choice.ts';

export interface LoadedWorkbook {
  /** The worksheets in tab order, with their visibility (`visible`, `hidden`, `veryHidden`). */
  sheets: Array<{ name: string; state: string }>;
  book: WorkBook;
  /** The size of the workbook's sheets (by its version). */
  limit: SheetLimit;
  /** Rows hidden per sheet, where SheetJS does not report them (.ods). */
  hiddenRows?: ReadonlyMap<string, readonly RowRange[]>;
}

/** Rows `[first, last]`, 0-based as SheetJS numbers them, in the order of the sheet. */
export type RowRange = readonly [first: number, last: number];

/** BIFF error codes as Excel shows them. */
const ERRORS: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

/**
 * SheetJS' parse of `input` (a file's bytes, or the workbook stream of an .xls); what it cannot read is refused as
 * `corrupt` ("a corrupt binary Excel workbook (.xls)"). `shownText`: keep the text the file stores as each cell shows
 * (an .ods' `<text:p>`; for other formats SheetJS would format every cell to make it).
 */
export async function parseWorkbook(
  input: Buffer,
  corrupt: string,
  file: string,
  shownText = false,
): Promise<WorkBook> {
  const XLSX = await import('@e965/xlsx');
  // SheetJS reports what it doubts with console.error (ODS number formats it cannot convert, ...): kept off the
  // worker's output, whose logs are structured (the read is synchronous: nothing else runs meanwhile)
  const consoleError = console.error;
  console.error = () => undefined;
  try {
    return XLSX.read(input, {
      type: 'buffer',
      dense: true,
      cellDates: true,
      UTC: true,
      cellText: shownText,
      cellHTML: false,
      // a date cell's number format: the time of day it shows (cell-time.ts)
      cellNF: true,
      cellStyles: false,
    });
  } catch (err) {
    const msg = (err as Error)?.message || String(err);
    throw new FileRefusedError(file, `is ${corrupt} (${msg})`, { cause: err });
  } finally {
    console.error = consoleError;
  }
}

/**
 * The workbook's sheets in tab order with their visibility (`hidden`: sheets hidden that SheetJS does not report);
 * a workbook without any refused (`what`: "an OpenDocument spreadsheet (.ods)").
 */
export function workbookSheets(
  book: WorkBook,
  file: string,
  what: string,
  hidden: ReadonlySet<string> = new Set(),
): LoadedWorkbook['sheets'] {
  const states = book.Workbook?.Sheets ?? [];
  const sheets = book.SheetNames.map((name, i) => {
    const h = hidden.has(name) ? 1 : (states[i]?.Hidden ?? 0);
    return { name, state: h === 2 ? 'veryHidden' : h === 1 ? 'hidden' : 'visible' };
  });
  if (sheets.length === 0) throw new FileRefusedError(file, `is ${what} without any sheet`);
  return sheets;
}

function cellValue(c: CellObject | undefined): CellValue {
  if (c === undefined || c === null) return null;
  switch (c.t) {
    case 's':
      return c.v === undefined ? null : String(c.v);
    case 'n':
      return typeof c.v === 'number' && Number.isFinite(c.v) ? c.v : null;
    case 'd':
      if (!(c.v instanceof Date) && typeof c.v !== 'string') return null;
      return dateAsShown(c.v instanceof Date ? c.v : new Date(c.v), { numFmt: c.z as string | undefined, text: c.w });
    case 'b':
      return Boolean(c.v);
    case 'e':
      return typeof c.v === 'number' ? (ERRORS[c.v] ?? '#ERROR') : String(c.v ?? '#ERROR');
    case 'z':
    default:
      return null;
  }
}

const BATCH = 500;

function isEmpty(cells: readonly CellValue[]): boolean {
  return cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));
}

/** One sheet's rows from its first non-empty one, in batches; nothing when it holds no value. */
function* sheetRows(wb: LoadedWorkbook, name: string): Generator<HeadRow[]> {
  const ws = wb.book.Sheets[name];
  const data = (ws?.['!data'] ?? []) as Array<Array<CellObject | undefined> | undefined>;
  const rowInfo = ws?.['!rows'];
  const hidden = wb.hiddenRows?.get(name) ?? [];
  let h = 0;
  let started = false;
  let batch: HeadRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r] ?? [];
    const cells: CellValue[] = new Array<CellValue>(src.length);
    for (let i = 0; i < src.length; i++) cells[i] = cellValue(src[i]);
    if (!started) {
      if (isEmpty(cells)) continue;
      started = true;
    }
    const row: HeadRow = { row: r + 1, cells, sheet: name };
    while (h < hidden.length && hidden[h]![1] < r) h++;
    if (rowInfo?.[r]?.hidden || (h < hidden.length && hidden[h]![0] <= r)) row.hidden = true;
    batch.push(row);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The rows of the sheet named `sheetName` (any case), or of the first sheet holding any value (visible sheets
 * before hidden ones).
 */
export async function* readWorkbookRows(wb: LoadedWorkbook, sheetName?: string): AsyncGenerator<HeadRow[]> {
  yield* firstWithRows(sheetsToTry(wb.sheets, sheetName), (s) => sheetRows(wb, s.name));
}

/** A workbook read whole, loaded at its first use and kept while the file is read. */
export function workbookSource(load: () => Promise<LoadedWorkbook>): RowSource {
  let loaded: Promise<LoadedWorkbook> | undefined;
  let read: LoadedWorkbook | undefined;
  const book = (): Promise<LoadedWorkbook> => (loaded ??= load());
  return {
    multiSheet: true,
    async *open(sheet) {
      read = await book();
      yield* readWorkbookRows(read, sheet);
    },
    async sheets() {
      return triedOrder((await book()).sheets).map((s) => s.name);
    },
    limit: () => read?.limit,
  };
}

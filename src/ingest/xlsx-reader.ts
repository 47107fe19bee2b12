/**
 * Streamed xlsx rows with exceljs' WorkbookReader. Shared strings and styles are cached (else strings come back as
 * indexes and dates as numbers); rich text is flattened to its text, formula cells give their cached result (a
 * formula never computed by Excel has none: the cell is empty), hyperlinks their text, error cells their code
 * (#N/A). Date-formatted cells arrive as Date whose UTC fields hold the workbook's wall clock (date-format.ts).
 * The sheet is the one named, or the first with any value.
 *
 * exceljs leaves two failures unhandled, so the reader catches them itself and throws them to its caller:
 *   - a read error of the file (gone, unreadable): nobody listens on the stream it is given, so it would be an
 *     uncaught exception that ends the worker;
 *   - an inflate error of the zip (corrupt deflate data): emitted on its zip parser while it waits for the entry's
 *     next bytes, which never come, so the read would hang for ever.
 */
import { createReadStream } from 'node:fs';
import { loadExcelJS } from '../exceljs-loader.ts';
import { SheetNotFoundError } from '../errors.ts';

export type CellValue = string | number | boolean | Date | null;

export interface XlsxRow {
  /** 1-based row number as Excel shows it. */
  row: number;
  cells: CellValue[];
  sheet: string;
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

export async function* readXlsxRows(path: string, sheetName?: string): AsyncGenerator<XlsxRow[]> {
  const { stream } = await loadExcelJS(); // before the file opens: nothing of it is left unwatched meanwhile
  const input = createReadStream(path, { highWaterMark: 256 * 1024 });
  let fail: (err: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => undefined); // only ever awaited in a race, possibly after it settled
  let failure: unknown;
  const onError = (err: unknown): void => {
    failure ??= err;
    fail(err);
  };
  input.on('error', onError);
  // exceljs pipes the file into its zip parser: listen there too (its inflate errors end up on it)
  const pipe = input.pipe.bind(input);
  input.pipe = <T extends NodeJS.WritableStream>(dest: T, opts?: { end?: boolean }): T => {
    dest.on('error', onError);
    return pipe(dest, opts);
  };
  const reader = new stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const seen: string[] = [];
  let chosen: string | undefined;
  let batch: XlsxRow[] = [];
  try {
    for await (const ws of racing(reader, failed)) {
      const name = (ws as unknown as { name: string }).name;
      seen.push(name);
      if (chosen !== undefined) break;
      const wanted = sheetName === undefined || name.toLowerCase() === sheetName.toLowerCase();
      for await (const r of racing(ws, failed)) {
        if (!wanted) continue; // drain: exceljs must consume the entry
        const values = r.values as unknown[];
        const cells: CellValue[] = [];
        for (let i = 1; i < values.length; i++) cells.push(flatten(values[i]));
        if (chosen === undefined) {
          if (isEmptyRow(cells)) continue;
          chosen = name;
        }
        batch.push({ row: r.number, cells, sheet: name });
        if (batch.length >= 500) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) {
        yield batch;
        batch = [];
      }
      if (wanted && sheetName !== undefined && chosen === undefined) chosen = name; // named but empty
    }
  } catch (err) {
    throw failure ?? err;
  } finally {
    input.destroy();
  }
  if (sheetName !== undefined && chosen === undefined) throw new SheetNotFoundError(sheetName, seen);
}

/**
 * The items of `it`, until `failed` rejects: then that error (also when `it` waits for data that never comes).
 * `failed` is listened to once, not raced per item: every Promise.race([next, failed]) adds a reaction to the
 * long-lived `failed` that keeps that item's result alive until `failed` settles (which, for a good file, is never):
 * memory grew with every row (2.4 GB at 400k rows).
 */
async function* racing<T>(it: AsyncIterable<T>, failed: Promise<never>): AsyncGenerator<T> {
  const iterator = it[Symbol.asyncIterator]();
  let failure: { err: unknown } | undefined;
  let interrupt: ((err: unknown) => void) | undefined;
  failed.catch((err: unknown) => {
    failure = { err };
    interrupt?.(err);
  });
  let settled = true;
  try {
    for (;;) {
      if (failure) throw failure.err;
      settled = false;
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        interrupt = reject;
        iterator.next().then(resolve, reject);
      });
      interrupt = undefined;
      settled = true;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    interrupt = undefined;
    // an early stop ends exceljs' generator as a plain for-await would; one stuck in a read is left to the GC
    if (settled) await iterator.return?.();
  }
}

/**
 * Old binary .xls (BIFF5/BIFF8), XML Spreadsheet 2003 and OpenDocument .ods, parsed whole in memory by SheetJS CE
 * (`@e965/xlsx` 0.20.3, see docs/development.md): the sniffer has held the file (or the .ods' uncompressed parts)
 * within MAX_IN_MEMORY_READ_BYTES, and refused an XML file that declares a DTD before this reads it (SheetJS does not
 * expand entities either; the check is ours so that no parser is ever trusted with one).
 *
 * Rows come as the xlsx reader gives them: typed cells (text as written, numbers as numbers, date-formatted cells
 * as Date whose UTC fields hold the workbook's wall clock, booleans, error cells as their code such as `#N/A`);
 * a formula gives its cached result (none: an empty cell); a merged range its value in its top-left cell. The sheet
 * is the one named (any case), or the first with any value, visible sheets before hidden ones.
 */
import { readFile } from 'node:fs/promises';
import type { CellObject, WorkBook } from '@e965/xlsx';
import { Parser } from 'htmlparser2';
import { FileRefusedError, SheetNotFoundError } from '../core/index.ts';
import type { InMemoryKind } from './file-sniffer.ts';
import { XML_DTD } from './format-recognition.ts';
import type { CellValue, XlsxRow } from './xlsx-reader.ts';

export interface LoadedWorkbook {
  /** The worksheets in tab order, with their visibility (`visible`, `hidden`, `veryHidden`). */
  sheets: Array<{ name: string; state: string }>;
  book: WorkBook;
}

const WHAT: Record<InMemoryKind, string> = {
  xls: 'a corrupt binary Excel workbook (.xls)',
  xml2003: 'a corrupt XML spreadsheet (XML Spreadsheet 2003)',
  ods: 'a corrupt OpenDocument spreadsheet (.ods)',
};

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

/** Decoded as SheetJS will see it, for the DTD check (UTF-16 by its byte order mark, else bytes as Latin-1). */
function xmlText(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.toString('utf16le');
  if (buf[0] === 0xfe && buf[1] === 0xff)
    return Buffer.from(buf.subarray(0, buf.length & ~1))
      .swap16()
      .toString('utf16le');
  return buf.toString('latin1');
}

export async function loadWorkbook(path: string, kind: InMemoryKind, file: string): Promise<LoadedWorkbook> {
  const XLSX = await import('@e965/xlsx');
  let buf: Buffer | undefined = await readFile(path);
  if (kind === 'xml2003' && XML_DTD.test(xmlText(buf)))
    throw new FileRefusedError(
      file,
      'is an XML spreadsheet that declares a DTD or entities (<!DOCTYPE>/<!ENTITY>); these are refused, as entity expansion can exhaust memory ("billion laughs")',
    );
  let book: WorkBook;
  let hiddenOds = new Set<string>();
  // SheetJS reports what it doubts with console.error (ODS number formats it cannot convert, ...): kept off the
  // worker's output, whose logs are structured (the read is synchronous: nothing else runs meanwhile)
  const consoleError = console.error;
  console.error = () => undefined;
  try {
    if (kind === 'ods') {
      const cfb = XLSX.CFB as {
        read(b: Buffer, o: { type: 'buffer' }): unknown;
        find(c: unknown, path: string): { content: Uint8Array } | null;
      };
      hiddenOds = odsHiddenTables(cfb.find(cfb.read(buf, { type: 'buffer' }), 'content.xml')?.content);
    }
    book = XLSX.read(buf, {
      type: 'buffer',
      dense: true,
      cellDates: true,
      UTC: true,
      cellText: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
    });
  } catch (err) {
    const msg = (err as Error)?.message || String(err);
    throw new FileRefusedError(file, `is ${WHAT[kind]} (${msg})`, { cause: err });
  } finally {
    console.error = consoleError;
    buf = undefined;
  }
  const states = book.Workbook?.Sheets ?? [];
  const sheets = book.SheetNames.map((name, i) => {
    const h = hiddenOds.has(name) ? 1 : (states[i]?.Hidden ?? 0);
    return { name, state: h === 2 ? 'veryHidden' : h === 1 ? 'hidden' : 'visible' };
  });
  if (sheets.length === 0)
    throw new FileRefusedError(file, `is ${WHAT[kind].replace('a corrupt', 'an')} without any sheet`);
  return { sheets, book };
}

/**
 * The tables of an .ods that LibreOffice hides (SheetJS does not report them): a table whose automatic style has
 * `table:display="false"`. content.xml is read with htmlparser2 in XML mode (no DTD, no entity but the five XML ones).
 */
function odsHiddenTables(contentXml: Uint8Array | undefined): Set<string> {
  if (!contentXml) return new Set();
  const hiddenStyles = new Set<string>();
  const tables: Array<[string, string]> = [];
  let style: string | undefined;
  const parser = (): Parser =>
    new Parser(
      {
        onopentag(name, a) {
          if (name === 'style:style') style = a['style:family'] === 'table' ? a['style:name'] : undefined;
          else if (name === 'style:table-properties' && style && a['table:display'] === 'false')
            hiddenStyles.add(style);
          else if (name === 'table:table') tables.push([a['table:name'] ?? '', a['table:style-name'] ?? '']);
        },
      },
      { xmlMode: true },
    );
  const xml = Buffer.from(contentXml.buffer, contentXml.byteOffset, contentXml.byteLength);
  const body = xml.indexOf('<office:body');
  if (body < 0) {
    parser().end(xml.toString('utf8'));
  } else {
    // The automatic styles come before the body (ODF's order); in the body only the <table:table> tags matter: each
    // found and parsed alone (it ends before the next `<`, which XML does not allow in an attribute's value), not
    // the sheet's cells (an 80,000-row content.xml: 3 s parsed whole)
    parser().end(xml.toString('utf8', 0, body));
    for (let at = xml.indexOf('<table:table', body); at >= 0; at = xml.indexOf('<table:table', at + 1)) {
      const next = xml[at + 12];
      if (next !== 0x20 && next !== 0x09 && next !== 0x0a && next !== 0x0d && next !== 0x3e && next !== 0x2f) continue;
      const end = xml.indexOf(0x3c, at + 1);
      parser().end(xml.toString('utf8', at, end < 0 ? xml.length : end));
    }
  }
  return new Set(tables.filter(([, st]) => hiddenStyles.has(st)).map(([n]) => n));
}

function cellValue(c: CellObject | undefined): CellValue {
  if (c === undefined || c === null) return null;
  switch (c.t) {
    case 's':
      return c.v === undefined ? null : String(c.v);
    case 'n':
      return typeof c.v === 'number' && Number.isFinite(c.v) ? c.v : null;
    case 'd':
      return c.v instanceof Date ? c.v : typeof c.v === 'string' ? new Date(c.v) : null;
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
function* sheetRows(wb: LoadedWorkbook, name: string): Generator<XlsxRow[]> {
  const data = (wb.book.Sheets[name]?.['!data'] ?? []) as Array<Array<CellObject | undefined> | undefined>;
  let started = false;
  let batch: XlsxRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r] ?? [];
    const cells: CellValue[] = new Array<CellValue>(src.length);
    for (let i = 0; i < src.length; i++) cells[i] = cellValue(src[i]);
    if (!started) {
      if (isEmpty(cells)) continue;
      started = true;
    }
    batch.push({ row: r + 1, cells, sheet: name });
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
export async function* readWorkbookRows(wb: LoadedWorkbook, sheetName?: string): AsyncGenerator<XlsxRow[]> {
  let candidates: string[];
  if (sheetName !== undefined) {
    const named = wb.sheets.find((s) => s.name.toLowerCase() === sheetName.toLowerCase());
    if (!named)
      throw new SheetNotFoundError(
        sheetName,
        wb.sheets.map((s) => s.name),
      );
    candidates = [named.name];
  } else {
    candidates = [
      ...wb.sheets.filter((s) => s.state === 'visible'),
      ...wb.sheets.filter((s) => s.state !== 'visible'),
    ].map((s) => s.name);
  }
  for (const name of candidates) {
    let any = false;
    for (const batch of sheetRows(wb, name)) {
      any = true;
      yield batch;
    }
    if (any) return;
  }
}

/**
 * Tables of an HTML page (what Oracle EBS, many web reports and SAP's "Excel" download write and name `.xls`), read
 * streamed with htmlparser2: a real HTML parser (implied end tags, entities, comments, scripts), never regular
 * expressions, and never the whole page in memory: a row is kept until its `</tr>`, then handed on. The rows are read
 * with htmlparser2's Tokenizer under the Parser's element rules (html-table-parser.ts: the same events, without the
 * work no table needs); the list of tables with the Parser itself.
 *
 * Each `<table>` is one table, numbered in document order (`Table 1`, `Table 2`, ...) and also known by its `id`,
 * its `<caption>` and the heading just before it (LibreOffice's export of a workbook heads each sheet's table
 * "Sheet 2: Lines": known as "Lines" and by the whole heading): a profile's `sheet` may name it by any of these.
 * Without a name, the first table holding any value is read. A table nested in a cell is a table of its own; its text is not the outer cell's. Cells (`td`,
 * `th`) are text as written: entities decoded, runs of white space as one space, `<br>` as a line break, trimmed.
 * A `colspan` or `rowspan` cell keeps its value in its first cell and leaves the others empty (as a merged range in
 * a workbook), so the columns after it stay in place. Row numbers count the table's rows (`<tr>`), from 1. A row
 * hidden by `style="display:none"` (as Excel exports a filtered-out row) or `hidden` is marked; LibreOffice leaves
 * hidden rows out of its export.
 *
 * Bounds: a row longer than MAX_CSV_RECORD_CHARS characters, elements nested deeper than MAX_ELEMENT_DEPTH or tables
 * deeper than MAX_TABLE_DEPTH refuse the file; a page without any table is refused as "an HTML page without a table".
 */
import { Parser } from 'htmlparser2';
import { FileRefusedError, SheetNotFoundError } from '../../core/index.ts';
import type { HeadRow } from './format.ts';
import { MAX_CSV_RECORD_CHARS } from './csv-reader.ts';
import { TableParser } from './html-table-parser.ts';
import { decodedStream, type TextDecision } from './text-encoding.ts';

/** Tables inside tables inside tables...: real layouts nest a few; more is a hostile page. */
export const MAX_TABLE_DEPTH = 64;
/**
 * Elements inside elements: Excel's and report servers' pages nest about 10 deep. htmlparser2 keeps its open
 * elements with Array.unshift, so its cost grows with the square of the depth (200,000 nested <div>: 2 minutes);
 * past this depth the page is refused before that cost is paid.
 */
export const MAX_ELEMENT_DEPTH = 1000;
const BATCH = 500;
const BR = '\u2028';

interface OpenTable {
  index: number;
  id?: string;
  caption?: string;
  /** The heading just before the table (LibreOffice writes each sheet's name so: "Sheet 2: Lines"). */
  heading?: string;
  /** Rows seen (`<tr>` opened), the current one's number. */
  rowNo: number;
  row: string[] | undefined;
  rowChars: number;
  /** The cell being read: its text so far. */
  cell: string | undefined;
  inCaption: boolean;
  /** Columns still taken by a rowspan above: column -> rows left. */
  spans: Map<number, number>;
  /** The current cell's `colspan` and `rowspan` as written (the first of each), applied when it ends. */
  colspanAttr: string | undefined;
  rowspanAttr: string | undefined;
  /** Whether the table's `id` was given (the first one counts, as in the DOM). */
  idSeen: boolean;
  /** The current row is hidden (`style="display:none"`, as Excel writes a filtered-out row, or `hidden`). */
  rowHidden: boolean;
  /** Whether its rows are the ones asked for (settled at its first row, once its caption is known). */
  wanted?: boolean;
}

export interface HtmlTableInfo {
  index: number;
  name: string;
  aliases: string[];
  rows: number;
}

type Named = { index: number; id?: string; caption?: string; heading?: string };

/** A heading's sheet name: LibreOffice's "Sheet 2: Lines" (in any language: "Tabelle 2: ...") names "Lines". */
function sheetOf(heading: string | undefined): string | undefined {
  return heading === undefined ? undefined : (/^\D*\d+\s*:\s*(.+)$/.exec(heading)?.[1] ?? heading);
}
function tableName(t: Named): string {
  return t.id || t.caption || sheetOf(t.heading) || `Table ${t.index}`;
}
function aliases(t: Named): string[] {
  return [t.id, t.caption, sheetOf(t.heading), t.heading, `Table ${t.index}`]
    .filter((x): x is string => !!x)
    .map((x) => x.toLowerCase());
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Anything to clean: white space other than single inner spaces, a no-break space, a <br> mark, spaces at the ends. */
const UNCLEAN = /[\t\n\r\f\v\u00a0\u2028]| {2}|^ | $/;

function cleanText(s: string): string {
  if (!UNCLEAN.test(s)) return s; // most cells: nothing to do (this check is most of the reader's time otherwise)
  return s
    .replace(/[\s\u00a0]+/g, (m) => (m.includes(BR) ? '\n' : ' '))
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .trim();
}

type Want = { table: string | undefined; onRow: (t: OpenTable, cells: string[]) => void };

/** A cell's text into its row (and the empty cells of its colspan); refuses a row over the length bound. */
function endCell(file: string, t: OpenTable): void {
  if (t.cell === undefined || !t.row) return;
  const text = cleanText(t.cell);
  t.rowChars += text.length;
  if (t.rowChars > MAX_CSV_RECORD_CHARS)
    throw new FileRefusedError(
      file,
      `has a table row longer than ${MAX_CSV_RECORD_CHARS.toLocaleString('en')} characters (row ${t.rowNo} of ${tableName(t)})`,
    );
  t.row.push(text);
  if (t.colspanAttr !== undefined || t.rowspanAttr !== undefined) spanCell(t, t.row);
  t.cell = undefined;
}

/**
 * The cell just added spans columns and rows: a rowspan takes its columns in the rows below (this row counts), a
 * colspan leaves empty cells after it.
 */
function spanCell(t: OpenTable, row: string[]): void {
  const span = Math.min(1000, Math.max(1, Number.parseInt(t.colspanAttr ?? '1', 10) || 1));
  const rows = Math.min(10000, Math.max(1, Number.parseInt(t.rowspanAttr ?? '1', 10) || 1));
  const col = row.length - 1;
  if (rows > 1) for (let i = 0; i < span; i++) t.spans.set(col + i, rows);
  for (let i = 1; i < span; i++) row.push('');
  t.colspanAttr = undefined;
  t.rowspanAttr = undefined;
}

/** The row complete: the columns rowspans above still take filled, the spans counted down, the row handed on. */
function endRow(file: string, want: Want, t: OpenTable): void {
  endCell(file, t);
  if (!t.row) return;
  if (t.spans.size > 0) fillSpans(t, t.row);
  t.wanted ??= want.table === undefined || aliases(t).includes(want.table.toLowerCase());
  if (t.wanted) want.onRow(t, t.row);
  t.row = undefined;
}

/** The columns rowspans above still take filled at the row's end, the spans counted down. */
function fillSpans(t: OpenTable, row: string[]): void {
  while (t.spans.has(row.length)) row.push('');
  for (const [col, left] of t.spans) {
    if (left <= 1) t.spans.delete(col);
    else t.spans.set(col, left - 1);
  }
}

function startRow(file: string, want: Want, t: OpenTable): void {
  endRow(file, want, t);
  t.rowNo++;
  t.row = [];
  t.rowChars = 0;
  t.rowHidden = false;
}

/** A cell opens: past the columns a rowspan above still takes; its own spans come with its attributes. */
function startCell(file: string, want: Want, t: OpenTable): void {
  if (!t.row) startRow(file, want, t);
  endCell(file, t);
  t.cell = '';
  t.colspanAttr = undefined;
  t.rowspanAttr = undefined;
  if (t.spans.size > 0) while (t.spans.has(t.row!.length)) t.row!.push('');
}

/** A table as its tag opens (`heading`: the heading just before it, outside any table). */
function newTable(index: number, heading: string | undefined): OpenTable {
  return {
    index,
    id: undefined,
    heading,
    rowNo: 0,
    row: undefined,
    rowChars: 0,
    cell: undefined,
    inCaption: false,
    spans: new Map(),
    colspanAttr: undefined,
    rowspanAttr: undefined,
    idSeen: false,
    rowHidden: false,
  };
}

/**
 * The parser's callbacks, keeping the open tables on a stack of their own (no recursion anywhere). Tags come by
 * name and their attributes one by one (onopentagname, onattribute): without an `onopentag`, htmlparser2 builds no
 * attribute object for each of the page's tags, and only a table's `id`, a row's `style` and `hidden` and a cell's
 * spans are kept. The text of a heading outside any table is kept as the name of the table after it.
 */
function handlers(file: string, want: Want, tables: HtmlTableInfo[]) {
  const stack: OpenTable[] = [];
  let count = 0;
  let depth = 0;
  /** The table whose tag (0: none, 1: <table>, 2: a cell, 3: a row) is being opened: where its attributes go. */
  let attrOf: OpenTable | undefined;
  let attrTag = 0;
  /** The text of the heading being read outside tables, and of the last one, until a table takes it. */
  let heading: string | undefined;
  let lastHeading: string | undefined;
  const top = (): OpenTable | undefined => stack[stack.length - 1];
  return {
    stack,
    wantsText(): boolean {
      const t = top();
      return t === undefined ? heading !== undefined : t.cell !== undefined || t.inCaption;
    },
    wantsAttributes(): boolean {
      return attrTag !== 0;
    },
    onattribute(name: string, value: string): void {
      if (attrTag === 0) return;
      const t = attrOf!;
      if (attrTag === 1) {
        if (name === 'id' && !t.idSeen) {
          t.idSeen = true;
          t.id = value.trim() || undefined;
        }
      } else if (attrTag === 3) {
        if (name === 'hidden' || (name === 'style' && /display\s*:\s*none/i.test(value))) t.rowHidden = true;
      } else if (name === 'colspan') t.colspanAttr ??= value;
      else if (name === 'rowspan') t.rowspanAttr ??= value;
    },
    onopentagname(name: string): void {
      attrTag = 0;
      if (++depth > MAX_ELEMENT_DEPTH)
        throw new FileRefusedError(file, `is an HTML page with elements nested more than ${MAX_ELEMENT_DEPTH} deep`);
      const t = top();
      if (name === 'table') {
        if (stack.length >= MAX_TABLE_DEPTH)
          throw new FileRefusedError(file, `has tables nested more than ${MAX_TABLE_DEPTH} deep`);
        attrOf = newTable(++count, stack.length === 0 ? lastHeading : undefined);
        if (stack.length === 0) lastHeading = undefined;
        attrTag = 1;
        stack.push(attrOf);
      } else if (!t) {
        if (HEADINGS.has(name)) heading = '';
      } else if (name === 'tr') {
        startRow(file, want, t);
        attrOf = t;
        attrTag = 3;
      } else if (name === 'td' || name === 'th') {
        startCell(file, want, t);
        attrOf = t;
        attrTag = 2;
      } else if (name === 'br' && t.cell !== undefined) t.cell += BR;
      else if (name === 'caption') t.inCaption = true;
    },
    ontext(text: string): void {
      const t = top();
      if (!t) {
        if (heading !== undefined && heading.length < 1000) heading += text;
        return;
      }
      if (t.cell !== undefined) {
        t.cell += text;
        if (t.cell.length > MAX_CSV_RECORD_CHARS)
          throw new FileRefusedError(
            file,
            `has a table cell longer than ${MAX_CSV_RECORD_CHARS.toLocaleString('en')} characters (row ${t.rowNo} of ${tableName(t)})`,
          );
      } else if (t.inCaption) t.caption = cleanText((t.caption ?? '') + text).slice(0, 200);
    },
    onclosetag(name: string): void {
      depth--;
      const t = top();
      if (!t) {
        if (heading !== undefined && HEADINGS.has(name)) {
          lastHeading = cleanText(heading).slice(0, 200) || undefined;
          heading = undefined;
        }
        return;
      }
      if (name === 'td' || name === 'th') endCell(file, t);
      else if (name === 'tr') endRow(file, want, t);
      else if (name === 'caption') t.inCaption = false;
      else if (name === 'table') {
        endRow(file, want, t);
        stack.pop();
        tables.push({ index: t.index, name: tableName(t), aliases: aliases(t), rows: t.rowNo });
      }
    },
  };
}

/**
 * The rows of the table named `table` (its id, caption or `Table N`, any case), or of the first table holding any
 * value, in batches.
 */
export async function* readHtmlRows(
  path: string,
  text: TextDecision,
  file: string,
  table?: string,
): AsyncGenerator<HeadRow[]> {
  let batch: HeadRow[] = [];
  let chosen: number | undefined;
  const tables: HtmlTableInfo[] = [];
  const h = handlers(
    file,
    {
      table,
      onRow(t, cells) {
        if (table === undefined) {
          if (chosen === undefined && cells.some((c) => c !== '')) chosen = t.index;
          if (chosen !== t.index) return;
        }
        const row: HeadRow = { row: t.rowNo, cells, sheet: table ?? tableName(t) };
        if (t.rowHidden) row.hidden = true;
        batch.push(row);
      },
    },
    tables,
  );
  const parser = new TableParser(h);
  const input = decodedStream(path, text, file);
  let any = false;
  try {
    for await (const chunk of input) {
      parser.write(chunk as string);
      if (batch.length >= BATCH) {
        any = true;
        yield batch;
        batch = [];
      }
      // the table read without a name has ended: nothing more to read
      if (table === undefined && chosen !== undefined && !h.stack.some((t) => t.index === chosen)) break;
    }
    parser.end();
  } finally {
    input.destroy();
  }
  if (batch.length > 0) {
    any = true;
    yield batch;
  }
  if (any) return;
  if (tables.length === 0 && table === undefined) throw new FileRefusedError(file, 'is an HTML page without a table');
  if (table !== undefined && !tables.some((t) => t.aliases.includes(table.toLowerCase())))
    throw new SheetNotFoundError(
      table,
      tables.map((t) => t.name),
    );
}

/** The tables of the page in document order (one streamed pass). */
export async function listHtmlTables(path: string, text: TextDecision, file: string): Promise<HtmlTableInfo[]> {
  const tables: HtmlTableInfo[] = [];
  const parser = new Parser(handlers(file, { table: '\u0000none', onRow: () => undefined }, tables), {
    decodeEntities: true,
    lowerCaseTags: true,
  });
  const input = decodedStream(path, text, file);
  try {
    for await (const chunk of input) parser.write(chunk as string);
    parser.end();
  } finally {
    input.destroy();
  }
  return tables.sort((a, b) => a.index - b.index);
}

/**
 * OpenDocument spreadsheets (.ods), parsed whole in memory by SheetJS (sheetjs-reader.ts). Its text is UTF-8, as
 * the format requires. What SheetJS does not report is read from content.xml here: the tables LibreOffice hides and
 * the rows hidden in a table (by hand, `table:visibility="collapse"`, or by a filter, `"filter"`).
 */
import { readFile } from 'node:fs/promises';
import { Parser } from 'htmlparser2';
import { FileRefusedError } from '../../core/index.ts';
import type { FileFormat, SheetLimit } from './format.ts';
import { parseWorkbook, workbookSheets, workbookSource, type LoadedWorkbook, type RowRange } from './sheetjs-reader.ts';

/** LibreOffice's sheet since 7.4 (16,384 columns; 1,048,576 rows since 3.3). */
const ODS_SHEET: SheetLimit = { what: 'an .ods sheet (LibreOffice)', rows: 1_048_576, columns: 16_384 };
const CORRUPT = 'a corrupt OpenDocument spreadsheet (.ods)';

interface CfbApi {
  read(b: Buffer, o: { type: 'buffer' }): unknown;
  find(c: unknown, path: string): { content: Uint8Array } | null;
}

export async function loadOds(path: string, file: string): Promise<LoadedWorkbook> {
  const buf = await readFile(path);
  const XLSX = await import('@e965/xlsx');
  let content: Buffer | undefined;
  try {
    const cfb = XLSX.CFB as CfbApi;
    const xml = cfb.find(cfb.read(buf, { type: 'buffer' }), 'content.xml')?.content;
    if (xml) content = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  } catch (err) {
    throw new FileRefusedError(file, `is ${CORRUPT} (${(err as Error).message})`, { cause: err });
  }
  const book = await parseWorkbook(buf, CORRUPT, file, true);
  const sheets = workbookSheets(book, file, 'an OpenDocument spreadsheet (.ods)', content && hiddenTables(content));
  return { sheets, book, limit: ODS_SHEET, ...(content ? { hiddenRows: hiddenRows(content) } : {}) };
}

/** The start of an element named `tag` at `at` (its name not followed by more name: `<table:table-row` is not `<table:table`). */
function endsName(xml: Buffer, at: number): boolean {
  const next = xml[at];
  return next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d || next === 0x3e || next === 0x2f;
}

/**
 * The tables of an .ods that LibreOffice hides (SheetJS does not report them): a table whose automatic style has
 * `table:display="false"`. content.xml is read with htmlparser2 in XML mode (no DTD, no entity but the five XML ones).
 */
function hiddenTables(xml: Buffer): Set<string> {
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
  const body = xml.indexOf('<office:body');
  if (body < 0) {
    parser().end(xml.toString('utf8'));
  } else {
    // The automatic styles come before the body (ODF's order); in the body only the <table:table> tags matter: each
    // found and parsed alone (it ends before the next `<`, which XML does not allow in an attribute's value), not
    // the sheet's cells (an 80,000-row content.xml: 3 s parsed whole)
    parser().end(xml.toString('utf8', 0, body));
    for (let at = xml.indexOf('<table:table', body); at >= 0; at = xml.indexOf('<table:table', at + 1)) {
      if (!endsName(xml, at + 12)) continue;
      const end = xml.indexOf(0x3c, at + 1);
      parser().end(xml.toString('utf8', at, end < 0 ? xml.length : end));
    }
  }
  return new Set(tables.filter(([, st]) => hiddenStyles.has(st)).map(([n]) => n));
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute's value in one tag's text, its five XML entities decoded. */
function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m?.[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]!);
}

/**
 * The rows hidden in each table (0-based, as SheetJS numbers them): rows counted tag by tag with their repeats, a
 * row whose `table:visibility` is `collapse` (hidden by hand) or `filter` (filtered out) kept. Most files hide none:
 * without any `table:visibility` nothing is counted.
 */
function hiddenRows(xml: Buffer): Map<string, RowRange[]> {
  const out = new Map<string, RowRange[]>();
  // one search of the whole content: LibreOffice writes the attribute for hidden rows and columns only
  if (xml.indexOf('table:visibility="') < 0) return out;
  const body = Math.max(0, xml.indexOf('<office:body'));
  let sheet: RowRange[] | undefined;
  let row = 0;
  for (let at = xml.indexOf('<table:table', body); at >= 0; at = xml.indexOf('<table:table', at + 1)) {
    const isTable = endsName(xml, at + 12);
    const isRow = xml.toString('latin1', at + 12, at + 16) === '-row' && endsName(xml, at + 16);
    if (!isTable && !isRow) continue;
    const tag = xml.toString('utf8', at, xml.indexOf(0x3e, at) + 1);
    if (isTable) {
      sheet = [];
      out.set(attribute(tag, 'table:name') ?? '', sheet);
      row = 0;
      continue;
    }
    const repeat = Number(attribute(tag, 'table:number-rows-repeated') ?? 1) || 1;
    const visibility = attribute(tag, 'table:visibility');
    if (sheet && (visibility === 'collapse' || visibility === 'filter')) sheet.push([row, row + repeat - 1]);
    row += repeat;
  }
  return out;
}

export const odsFormat: FileFormat = {
  kind: 'ods',
  name: 'OpenDocument spreadsheet (.ods)',
  container: 'zip',
  recognize(e) {
    if (e.container !== 'zip' || e.entries.has('xl/workbook.xml')) return false;
    if (!e.entries.has('mimetype') || !e.entries.has('content.xml')) return false;
    if (e.mimetype !== undefined && !e.mimetype.endsWith('.spreadsheet'))
      return { refuse: `is an OpenDocument file of type ${e.mimetype.split('.').pop()}, not a spreadsheet` };
    return true;
  },
  inMemory: { expansion: 8, of: 'uncompressed', called: 'an OpenDocument spreadsheet (.ods)' },
  limits: [ODS_SHEET],
  doc: {
    title: 'OpenDocument `.ods`',
    recognisedBy: 'a zip holding `mimetype` (`application/vnd.oasis.opendocument.spreadsheet`) and `content.xml`',
    read: 'whole, in memory (SheetJS)',
    encodings: 'UTF-8 (the format has no other)',
  },
  open: (f) => workbookSource(() => loadOds(f.path, f.file)),
};

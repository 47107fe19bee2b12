/**
 * Formats are recognised by content, never by extension: each sample of the five formats added besides CSV and xlsx
 * (and tab-separated text) ingests into exactly its expected requisitions under a misleading extension; content that
 * matches no reader is refused with one sentence naming what it looks like; the readers give typed cells, keep HTML
 * columns in place across colspan/rowspan, let a profile's `sheet` pick a table, and cut SAP lists at the header's
 * bars.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';
import { parse } from 'csv-parse/sync';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileRefusedError } from '../../src/core/errors.ts';
import { ingestFile, loadProfiles, sniffFile, type MappingProfile } from '../../src/ingest/index.ts';
import { readHtmlRows } from '../../src/ingest/formats/html-reader.ts';
import type { HeadRow } from '../../src/ingest/formats/index.ts';
import { readSapListRows } from '../../src/ingest/formats/sap-list-reader.ts';
import { loadOds } from '../../src/ingest/formats/ods.ts';
import { readWorkbookRows, type LoadedWorkbook } from '../../src/ingest/formats/sheetjs-reader.ts';
import { utf8 } from '../../src/ingest/formats/text-encoding.ts';
import { loadXls } from '../../src/ingest/formats/xls.ts';
import { loadXml2003 } from '../../src/ingest/formats/xml2003.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { FORMAT_SAMPLES } from './format-samples-expected.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxXlsxUncompressedBytes: 50 * 1024 * 1024, maxXlsxEntries: 100 };

const dir = tempDir('rfq-formats-');
let profiles: MappingProfile[];
beforeAll(async () => {
  profiles = await loadProfiles(`${ROOT}mappings`);
});

async function put(name: string, data: string | Uint8Array): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

function lines(reqs: Requisition[]): unknown[] {
  return reqs.flatMap((r) =>
    r.lines.map((l) => [r.key, l.external_id, l.product_name, l.uom, l.qty, l.estimated_price]),
  );
}
function expectedLines(file: string): unknown[] {
  const exp = FORMAT_SAMPLES[file]!.requisitions as Array<{ key: string; lines: unknown[][] }>;
  return exp.flatMap((r) => r.lines.map((l) => [r.key, l[1], l[2], l[4], l[5], l[6]]));
}

async function ingest(path: string, limits = LIMITS): Promise<{ profile: string; reqs: Requisition[] }> {
  const reqs: Requisition[] = [];
  const s = await ingestFile(path, { profiles, limits, now: NOW }, async (r) => void reqs.push(r));
  return { profile: s.profile, reqs };
}

async function refusal(path: string, limits = LIMITS): Promise<string> {
  try {
    await ingest(path, limits);
  } catch (err) {
    if (err instanceof FileRefusedError) return err.reason;
    throw err;
  }
  throw new Error(`${path} was read`);
}

describe('each format is recognised by its content under a misleading extension', () => {
  it.each([
    ['SAP_XXL_PurchReqs_Plant2000.xls', 'SAP_XXL_PurchReqs_Plant2000.csv', 'xls'],
    ['NS_SavedSearch_PurchaseRequests.xls', 'NS_SavedSearch_PurchaseRequests.xlsx', 'xml2003'],
    ['Oracle_iProc_Requisitions_Report.xls', 'Oracle_iProc_Requisitions_Report.txt', 'html'],
    ['LibreOffice_Bestellanforderungen.ods', 'LibreOffice_Bestellanforderungen.xlsx', 'ods'],
    ['SAP_List_BANF_unconverted.txt', 'SAP_List_BANF_unconverted.csv', 'sap-list'],
  ])('%s renamed %s is read as %s', async (sample, renamed, kind) => {
    const path = join(dir, renamed);
    await copyFile(join(ROOT, 'samples', sample), path);
    expect((await sniffFile(path, renamed, LIMITS)).format.kind).toBe(kind);
    const got = await ingest(path);
    expect(got.profile).toBe(FORMAT_SAMPLES[sample]!.profile);
    expect(lines(got.reqs)).toEqual(expectedLines(sample));
  });

  it('tab-separated text named .xls is read as the tab-separated text it is', async () => {
    const records = parse(await readFile(join(ROOT, 'samples', 'generic-template.csv')), { bom: true }) as string[][];
    expect(records.flat().some((c) => c.includes('\t'))).toBe(false);
    const tsv = records.map((r) => r.join('\t')).join('\r\n');
    const path = await put('generic-template.xls', tsv);
    expect((await sniffFile(path, 'generic-template.xls', LIMITS)).format.kind).toBe('csv');
    const fromTsv = await ingest(path);
    const fromCsv = await ingest(join(ROOT, 'samples', 'generic-template.csv'));
    expect(fromTsv.profile).toBe('generic');
    expect(lines(fromTsv.reqs)).toEqual(lines(fromCsv.reqs));
    expect(fromTsv.reqs.length).toBeGreaterThan(0);
  });
});

/** An OLE2 container holding the named streams (SheetJS' CFB writer). */
function ole2(names: string[]): Uint8Array {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const n of names) XLSX.CFB.utils.cfb_add(cfb, `/${n}`, Buffer.alloc(5000, 7));
  return XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array;
}

describe('content that matches no reader is refused in one sentence naming what it looks like', () => {
  it.each<[string, string | Uint8Array, string]>([
    [
      'report.xls',
      '<!DOCTYPE html><html><head><title>Requisitions</title></head><body><p>No data found.</p></body></html>',
      'is an HTML page without a table',
    ],
    [
      'invoice.xls',
      '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>',
      "is an XML document (root element <Invoice>), not a spreadsheet: of XML files only Excel's XML Spreadsheet 2003 is read",
    ],
    ['export.csv', '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n', 'is a PDF document, not a spreadsheet export'],
    ['export.txt', '[{"requisition":"PR-1","qty":2}]', 'is a JSON document, not a spreadsheet export'],
    ['memo.xls', ole2(['WordDocument', '1Table']), 'is a Word document (.doc), not a spreadsheet export'],
    [
      'locked.xls',
      ole2(['EncryptionInfo', 'EncryptedPackage']),
      'is a password-protected (encrypted) workbook; save it without a password as .xlsx',
    ],
    [
      'letter.ods',
      zipSync({
        mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
        'content.xml': strToU8('<x/>'),
      }),
      'is an OpenDocument file of type text, not a spreadsheet',
    ],
  ])('%s', async (name, data, reason) => {
    expect(await refusal(await put(name, data))).toBe(reason);
  });

  it('an XML spreadsheet declaring entities is refused before any parser sees it', async () => {
    const path = await put(
      'entities.xls',
      '<?xml version="1.0"?><!DOCTYPE Workbook [<!ENTITY a "aaaa">]><?mso-application progid="Excel.Sheet"?>' +
        '<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet><Table><Row><Cell><Data>&a;</Data></Cell></Row></Table></Worksheet></Workbook>',
    );
    expect(await refusal(path)).toMatch(/^is an XML spreadsheet that declares a DTD or entities/);
  });

  it('files read whole into memory are refused when their parse would take more than MAX_IN_MEMORY_READ_BYTES', async () => {
    const small = { ...LIMITS, maxInMemoryBytes: 32 * 1024 };
    for (const f of ['SAP_XXL_PurchReqs_Plant2000.xls', 'NS_SavedSearch_PurchaseRequests.xls']) {
      const r = await refusal(join(ROOT, 'samples', f), small);
      expect(r).toMatch(
        /: read whole it would take about [\d.]+ MiB of memory, over the [\d.]+ MiB budget for files read into memory \(MAX_IN_MEMORY_READ_BYTES\)$/,
      );
    }
    expect(await refusal(join(ROOT, 'samples', 'LibreOffice_Bestellanforderungen.ods'), small)).toMatch(
      /^is an OpenDocument spreadsheet \(\.ods\) that inflates to .*\(MAX_IN_MEMORY_READ_BYTES\)$/,
    );
    // streamed formats have no such limit
    expect((await ingest(join(ROOT, 'samples', 'Oracle_iProc_Requisitions_Report.xls'), small)).reqs.length).toBe(3);
  });
});

/** A workbook read whole, as its format loads it. */
function loadWorkbook(path: string, kind: 'xls' | 'xml2003' | 'ods', file: string): Promise<LoadedWorkbook> {
  if (kind === 'xls') return loadXls(path, file);
  if (kind === 'ods') return loadOds(path, file);
  return loadXml2003(path, file, utf8('test'));
}

async function all(src: AsyncGenerator<HeadRow[]>): Promise<HeadRow[]> {
  const out: HeadRow[] = [];
  for await (const b of src) out.push(...b);
  return out;
}

describe('the readers', () => {
  it('BIFF, XML 2003 and ODS give typed cells: text as written, numbers, dates (wall clock in UTC fields)', async () => {
    for (const [f, kind, sheet] of [
      ['SAP_XXL_PurchReqs_Plant2000.xls', 'xls', 'Sheet1'],
      ['NS_SavedSearch_PurchaseRequests.xls', 'xml2003', 'PurchaseRequests'],
      ['LibreOffice_Bestellanforderungen.ods', 'ods', 'Anforderungen'],
    ] as const) {
      const wb = await loadWorkbook(join(ROOT, 'samples', f), kind, f);
      const rows = await all(readWorkbookRows(wb, sheet));
      const first = rows[1]!.cells;
      expect(first.some((c) => c instanceof Date && c.getUTCHours() === 0)).toBe(true);
      expect(first.filter((c) => typeof c === 'number').length).toBeGreaterThanOrEqual(2);
      expect(typeof first[0]).toBe('string');
    }
    const xxl = await loadWorkbook(join(ROOT, 'samples', 'SAP_XXL_PurchReqs_Plant2000.xls'), 'xls', 'x');
    expect(xxl.sheets.map((s) => s.name)).toEqual(['Info', 'Sheet1']);
    const data = await all(readWorkbookRows(xxl, 'sheet1'));
    expect(data[1]!.cells.slice(0, 9)).toEqual([
      '0010020001',
      10,
      'MAT-4711',
      'Hex bolt M8x40 DIN 933 8.8',
      2000,
      'PC',
      0.12,
      'EUR',
      new Date(Date.UTC(2027, 2, 1)),
    ]);
  });

  it('HTML: entities, <br>, colspan and rowspan keep columns in place; nested tables are tables of their own', async () => {
    const path = await put(
      'spans.html',
      `<html><body><table id="outer"><tr><td>layout<table><caption>Inner</caption><tr><td>i1</td></tr></table></td></tr></table>
       <table id="lines"><tr><th>A</th><th>B</th><th>C</th></tr>
       <tr><td rowspan="2">r&amp;d</td><td colspan="2">wide&nbsp;cell</td></tr>
       <tr><td>b3<br>second line</td><td>c3</td>
       <tr><td>a4<td>b4<td>c4</table></body></html>`,
    );
    const rows = await all(readHtmlRows(path, utf8('test'), 'spans.html', 'lines'));
    expect(rows.map((r) => r.cells)).toEqual([
      ['A', 'B', 'C'],
      ['r&d', 'wide cell', ''],
      ['', 'b3\nsecond line', 'c3'],
      ['a4', 'b4', 'c4'],
    ]);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect((await all(readHtmlRows(path, utf8('test'), 'spans.html', 'inner'))).map((r) => r.cells)).toEqual([['i1']]);
    expect((await all(readHtmlRows(path, utf8('test'), 'spans.html', 'Table 1'))).map((r) => r.cells)).toEqual([
      ['layout'],
    ]);
  });

  it('formulas give their cached results; merged ranges their value in the top-left cell only', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Title', null],
      ['Qty', 'Total'],
    ]);
    ws.A3 = { t: 'n', v: 3, f: '1+2' };
    ws.B3 = { t: 'n', v: 30, f: 'A3*10' };
    ws['!ref'] = 'A1:B3';
    ws['!merges'] = [{ s: { r: 0, c: 0 }, e: { r: 0, c: 1 } }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    for (const [kind, bookType] of [
      ['ods', 'ods'],
      ['xml2003', 'xlml'],
      ['xls', 'biff8'],
    ] as const) {
      const path = await put(`formulas-${kind}`, XLSX.write(wb, { bookType, type: 'buffer' }) as Uint8Array);
      const rows = await all(readWorkbookRows(await loadWorkbook(path, kind, 'f'), 'S'));
      expect(
        rows.map((r) => [r.cells[0], r.cells[1] ?? null]),
        kind,
      ).toEqual([
        ['Title', null],
        ['Qty', 'Total'],
        [3, 30],
      ]);
    }
  });

  it('hidden sheets are tried after the visible ones, LibreOffice .ods included (SheetJS does not report them there)', async () => {
    // made by LibreOffice 7 (soffice --convert-to ods) from an xlsx whose first sheet "Old" is hidden
    const path = join(ROOT, 'test/ingest/fixtures/hidden-sheet-libreoffice.ods');
    const wb = await loadWorkbook(path, 'ods', 'hidden-sheet-libreoffice.ods');
    expect(wb.sheets).toEqual([
      { name: 'Old', state: 'hidden' },
      { name: 'Current', state: 'visible' },
    ]);
    expect((await all(readWorkbookRows(wb))).map((r) => r.cells)).toEqual([['new']]);
  });

  it('XML Spreadsheet 2003: a row with ss:Hidden is marked hidden (the .xls and .ods LibreOffice writes: libreoffice-exports)', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Requisition'], ['PR-1'], ['PR-2'], ['PR-3']]);
    ws['!rows'] = [{}, {}, { hidden: true }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    const path = await put('hidden.xml', XLSX.write(wb, { bookType: 'xlml', type: 'buffer' }) as Uint8Array);
    expect(await readFile(path, 'utf8')).toContain('ss:Hidden="1"');
    const rows = await all(readWorkbookRows(await loadWorkbook(path, 'xml2003', 'f')));
    expect(rows.map((r) => [r.cells[0], r.hidden ?? false])).toEqual([
      ['Requisition', false],
      ['PR-1', false],
      ['PR-2', true],
      ['PR-3', false],
    ]);
  });

  it('HTML: void and implied-closed elements do not count as nesting (5,000 <br>, <img>, unclosed <p>)', async () => {
    const path = await put(
      'voids.html',
      `<html><body>${'<p>text<br>more<img src=x><input>'.repeat(5000)}<table><tr><td>a<td>b</table></body></html>`,
    );
    expect((await all(readHtmlRows(path, utf8('test'), 'voids.html'))).map((r) => r.cells)).toEqual([['a', 'b']]);
  });

  it('SAP list: page headers, rules, subtotals and group lines are left out; a value holding "|" stays whole', async () => {
    const rule = '-'.repeat(31);
    const text = [
      'Title line                     1',
      rule,
      '|Req.    |Text          |Qty  |',
      rule,
      '|Plant 1000                    |',
      '|100     |Cable a|b     |    2|',
      '|*       |              |    2|',
      rule,
      'Title line                     2',
      rule,
      '|Req.    |Text          |Qty  |',
      rule,
      '|101     |Hose          |    5|',
      '|**      |              |    7|',
      rule,
    ].join('\n');
    const path = await put('list.txt', text);
    const rows = await all(readSapListRows(path, utf8('test'), 'list.txt'));
    expect(rows).toEqual([
      { row: 3, cells: ['Req.', 'Text', 'Qty'] },
      { row: 6, cells: ['100', 'Cable a|b', '2'] },
      { row: 13, cells: ['101', 'Hose', '5'] },
    ]);
  });
});

/**
 * `check --suggest` for every format an ERP writes: each sample in samples/ outside CSV and xlsx (the SAP list saved
 * "Text with Tabs", binary .xls, XML Spreadsheet 2003, an HTML table named .xls, .ods, the SAP list saved
 * "Unconverted") is drafted, the draft's YAML parsed and used unedited, and its ingest compared with the hand
 * profile's in mappings/: the same requisitions, lines, quantities, units, names and prices (and the same ids once
 * the hand profile's prefix is taken off, delivery days, locations and currencies). Before: .xls and .ods refused for NUL
 * bytes, XML 2003 "no data rows", the HTML's XML fragments drafted as column names, the unconverted list cut on `|`
 * with its rule lines and subtotals kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { loadProfiles, runCheck } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { ingestWith, LIMITS, missingRequired, NOW, suggestAndLoad } from './suggest-helpers.ts';
import { LOWER, TOP, writeCsv, writeXlsx } from './fixtures/two-row-header.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each sample, its hand profile and the prefix that profile puts before `{requisition}-{item}` ids. */
const SAMPLES = [
  { file: 'SAP_PR_List_text_tabs.txt', profile: 'sap-alv-list-tabs', prefix: 'SAPL-' },
  { file: 'SAP_XXL_PurchReqs_Plant2000.xls', profile: 'sap-xxl-xls', prefix: 'SAPX-' },
  { file: 'NS_SavedSearch_PurchaseRequests.xls', profile: 'netsuite-xml', prefix: 'NSX-' },
  { file: 'Oracle_iProc_Requisitions_Report.xls', profile: 'oracle-iproc-html', prefix: 'IPROC-' },
  { file: 'LibreOffice_Bestellanforderungen.ods', profile: 'libreoffice-ods', prefix: 'LO-' },
  { file: 'SAP_List_BANF_unconverted.txt', profile: 'sap-list-unconverted', prefix: 'SAPL-' },
];

/** What suppliers are asked for, per requisition; ids without `prefix` (a `!` marks one that lacks it). */
function asked(reqs: Requisition[], prefix = '') {
  return reqs.map((r) => ({
    key: r.key,
    currency: r.currency,
    location: r.rfq_location,
    required: r.required_date === undefined ? undefined : new Date(r.required_date).toISOString().slice(0, 10),
    lines: r.lines.map((l) => ({
      row: l.row,
      external_id: l.external_id.startsWith(prefix) ? l.external_id.slice(prefix.length) : `!${l.external_id}`,
      product_name: l.product_name,
      uom: l.uom,
      qty: l.qty,
      estimated_price: l.estimated_price,
    })),
  }));
}

describe('every format: the unedited `check --suggest` draft ingests as the hand profile does', async () => {
  const shipped = await loadProfiles(join(ROOT, 'mappings'));

  it.each(SAMPLES)('$file', async ({ file, profile, prefix }) => {
    const path = join(ROOT, 'samples', file);
    const want = await ingestWith(path, shipped);
    expect(want.reqs.length).toBeGreaterThan(0);
    expect(want.reqs.every((r) => r.profile === profile)).toBe(true);

    const { profile: draft } = await suggestAndLoad(path);
    const got = await ingestWith(path, [draft], draft.name);

    expect({ rejected: got.rejected, held: got.held, skipped: got.skipped }).toEqual({
      rejected: want.rejected,
      held: want.held,
      skipped: want.skipped,
    });
    expect(got.reqs.flatMap(missingRequired)).toEqual([]);
    expect(asked(got.reqs)).toEqual(asked(want.reqs, prefix));
  });

  it.each(SAMPLES.filter((x) => /\.(xls|ods)$/.test(x.file) && !x.file.startsWith('Oracle')))(
    '$file: typed cells are read as typed (dates as dates, numbers as numbers, no separator to guess)',
    async ({ file }) => {
      const { s } = await suggestAndLoad(join(ROOT, 'samples', file));
      const said = (what: string) => s.evidence.find((e) => e.what === what);
      expect(said('dates.formats')?.why).toMatch(/^"[^"]+": 0 text date\(s\) and \d+ Excel date cell\(s\) all read$/);
      expect(said('numbers.decimal')).toMatchObject({
        confidence: 'high',
        why: expect.stringMatching(/^\d+ number cell\(s\) stored as numbers/),
      });
      expect(s.reviews.map((r) => r.path)).not.toContain('numbers.decimal');
    },
  );
});

describe('the sheet and the requisition column a draft takes', () => {
  const HEADER = ['Req No', 'Line', 'Item Description', 'Quantity', 'UOM', 'Unit Price', 'Need By Date'];
  const data = (req: string, n: number) =>
    Array.from({ length: n }, (_, i) => [
      req,
      i + 1,
      `Part ${req}/${i + 1}`,
      2,
      'EA',
      9.5,
      new Date(Date.UTC(2027, 0, 15)),
    ]);

  it.each(['xlsx', 'xls'] as const)(
    '%s: a hidden sheet is tried after the visible ones, though it holds more rows',
    async (bookType) => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADER, ...data('OLD-1', 9)]), 'Old');
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADER, ...data('NEW-1', 2)]), 'Current');
      book.Workbook = {
        Sheets: [
          { name: 'Old', Hidden: 1 },
          { name: 'Current', Hidden: 0 },
        ],
      };
      const path = join(tempDir(), `two-sheets.${bookType}`);
      writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: bookType === 'xls' ? 'biff8' : 'xlsx' }));
      const { s, profile } = await suggestAndLoad(path);
      expect(s.raw.source).toEqual({ sheet: 'Current' });
      const got = await ingestWith(path, [profile], profile.name);
      expect(got.reqs.map((r) => [r.key, r.lines.length, r.lines[0]!.qty, r.lines[0]!.estimated_price])).toEqual([
        ['NEW-1', 2, 2, 19],
      ]);
    },
  );

  it.each([
    ['Report.xls', '<html><body><p>No requisitions today</p></body></html>', 'is an HTML page without a table'],
    ['Export.csv', '<?xml version="1.0"?><root><a>1</a></root>', 'is an XML document (root element <root>)'],
  ])('%s: refused as ingestion refuses it, by what it is, never drafted from as CSV text', async (name, text, says) => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    await expect(suggestAndLoad(path)).rejects.toThrow(`${name}: ${says}`);
    await expect(ingestWith(path, [])).rejects.toThrow(`${name}: ${says}`);
  });

  it('without a column named for it, the requisition is not a column named for something else ("Einheit")', async () => {
    // "Einheit" (the unit) comes in more consecutive runs than "Vorgang" (the requisition): it was once taken
    const rows = [
      ['Vorgang', 'Pos.', 'Bezeichnung', 'Menge', 'Einheit', 'Einzelpreis', 'Liefertermin'],
      ['V-7', '1', 'Toner schwarz', '10', 'Stk', '89,90', '2027-01-20'],
      ['V-7', '2', 'Ordner A4', '60', 'Stk', '2,35', '2027-01-20'],
      ['V-8', '1', 'Desinfektion 5 l', '8', 'Kan', '24,50', '2027-02-03'],
      ['V-8', '2', 'Handdesinfektion 1 l', '24', 'Fl', '7,95', '2027-02-03'],
      ['V-9', '1', 'Sicherheitsschuh S3', '5', 'Paar', '74,00', '2027-02-24'],
    ];
    const path = join(tempDir(), 'Anforderungen.csv');
    writeFileSync(path, rows.map((r) => r.join(';')).join('\r\n') + '\r\n');
    const { s, profile } = await suggestAndLoad(path);
    expect(s.raw.fields).toMatchObject({ requisition: '{Vorgang}', uom: '{Einheit}' });
    const got = await ingestWith(path, [profile], profile.name);
    expect(got.reqs.map((r) => [r.key, r.lines.map((l) => l.uom)])).toEqual([
      ['V-7', ['Stk', 'Stk']],
      ['V-8', ['Kan', 'Fl']],
      ['V-9', ['Paar']],
    ]);
  });
});

/**
 * Lines under the data that break its pattern (a trailer "End of report", a "Rows: N" footer, a page footer) go to
 * the draft's skip_rows and are set aside by the check, never mapped: the unedited draft reads every requisition of
 * the export as the draft of the export without them does, none held. Before: `qty` drafted from the line counter,
 * `external_id` from the requisition alone, the product from the wrong column, and the whole file held.
 */
describe('trailers and footers under the data: set aside by the draft, never mapped', () => {
  const CASES = [
    {
      file: 'EBS_requisition_lines.csv',
      trailer: 'Rows: 7',
      rule: { column: 'REQUISITION_NUMBER', matches: 'Rows: \\d+' },
      // the same rule sets aside the footer of a longer export
      later: 'Rows: 1234',
    },
    {
      file: 'NetSuite_Requisitions_SavedSearch.csv',
      trailer: `"End of report"${','.repeat(16)}`,
      rule: { column: 'Internal ID', equals: ['End of report'] },
    },
    {
      file: 'Sage100_Bedarfsanforderungen.csv',
      trailer: `Seite 1 von 1${';'.repeat(15)}`,
      rule: { column: 'Anforderungsnr.', matches: 'Seite \\d+ von \\d+' },
      later: `Seite 3 von 3${';'.repeat(15)}`,
    },
  ];

  it.each(CASES)('$file with "$trailer" under it', async ({ file, trailer, rule, later }) => {
    const original = join(ROOT, 'samples', file);
    const plain = await suggestAndLoad(original);
    const want = await ingestWith(original, [plain.profile], plain.profile.name);

    const dir = tempDir();
    const text = readFileSync(original, 'latin1').replace(/(\r?\n)?$/, '\r\n');
    const withTrailer = join(dir, file);
    writeFileSync(withTrailer, `${text}${trailer}\r\n`, 'latin1');
    const { s, profile } = await suggestAndLoad(withTrailer);
    const got = await ingestWith(withTrailer, [profile], profile.name);
    expect({ rejected: got.rejected, held: got.held, skipped: got.skipped }).toEqual({
      rejected: want.rejected,
      held: 0,
      skipped: want.skipped + 1,
    });
    expect(asked(got.reqs)).toEqual(asked(want.reqs));
    expect(s.raw.fields).toEqual(plain.s.raw.fields);
    expect(s.raw.skip_rows).toEqual([rule]);

    if (later === undefined) return;
    const longer = join(dir, `longer-${file}`);
    writeFileSync(longer, `${text}${later}\r\n`, 'latin1');
    const again = await ingestWith(longer, [profile], profile.name);
    expect({ held: again.held, skipped: again.skipped }).toEqual({ held: 0, skipped: want.skipped + 1 });
    expect(asked(again.reqs)).toEqual(asked(want.reqs));
  });
});

/** The requisitions of `asked` with each line one row further down (under a header one row taller). */
function oneRowDown(reqs: ReturnType<typeof asked>) {
  return reqs.map((r) => ({ ...r, lines: r.lines.map((l) => ({ ...l, row: l.row + 1 })) }));
}

describe('a header over two rows (merged down, group headings over sub-headings)', () => {
  it.each(['xlsx', 'csv'] as const)(
    '%s: the draft writes header_rows: 2 and reads the export as the draft of the plain export does',
    async (form) => {
      const dir = tempDir();
      const write = form === 'xlsx' ? writeXlsx : writeCsv;
      const plain = await suggestAndLoad(write(dir, 'plain'));
      const want = await ingestWith(join(dir, `plain.${form}`), [plain.profile], plain.profile.name);
      expect(want.reqs.map((r) => r.key)).toEqual(['PR-1001', 'PR-1002', 'PR-1003']);

      const twoRow = write(dir, 'two-row');
      const { s, profile } = await suggestAndLoad(twoRow);
      const got = await ingestWith(twoRow, [profile], profile.name);
      expect({ rejected: got.rejected, held: got.held }).toEqual({ rejected: 0, held: 0 });
      expect(asked(got.reqs)).toEqual(oneRowDown(asked(want.reqs)));
      expect(s.raw.fields).toEqual(plain.s.raw.fields);
      expect((s.raw.source as Record<string, unknown>).header_rows).toBe(2);
      expect(s.evidence.find((e) => e.what === 'source.header_rows')?.why).toContain(
        '"Item details" over "Material" to "Unit price"',
      );

      // the plain export's profile (no header_rows) reads it too: two rows are tried where no row has its columns
      const lines: string[] = [];
      const code = await runCheck(twoRow, { profiles: [plain.profile], limits: LIMITS, now: NOW }, (l) =>
        lines.push(l),
      );
      expect(code, lines.join('\n')).toBe(0);
      expect(lines[0]).toBe(
        `mapping profile "plain" (the header on rows 1-2 has all ${plain.profile.columns.length} of its columns)`,
      );
      const again = await ingestWith(twoRow, [plain.profile]);
      expect(asked(again.reqs)).toEqual(oneRowDown(asked(want.reqs)));
    },
  );

  it('a group line under a plain header is no second header row; repeated, it is set aside', async () => {
    const dir = tempDir();
    const plain = writeCsv(dir, 'plain');
    const want = await suggestAndLoad(plain);
    const lines = readFileSync(plain, 'utf8').trimEnd().split('\r\n');
    const grouped = join(dir, 'grouped.csv');
    writeFileSync(
      grouped,
      [lines[0], 'Plant 1000,Main works', ...lines.slice(1, 3), 'Plant 1100,Kassel', ...lines.slice(3)].join('\r\n'),
    );
    const { s, profile } = await suggestAndLoad(grouped);
    expect(s.raw.source).toEqual({ delimiter: ',' });
    expect(s.raw.fields).toEqual(want.s.raw.fields);
    expect(s.raw.skip_rows).toEqual([{ column: 'Requisition', matches: 'Plant \\d+' }]);
    const got = await ingestWith(grouped, [profile], profile.name);
    expect({ held: got.held, rejected: got.rejected, skipped: got.skipped }).toEqual({
      held: 0,
      rejected: 0,
      skipped: 2,
    });
    expect(got.reqs.map((r) => r.key)).toEqual(['PR-1001', 'PR-1002', 'PR-1003']);
  });

  it('the first two names blank over both rows: the draft names the columns it cannot map, qty stays a number', async () => {
    const path = writeCsv(tempDir(), 'two-row', 'blank-top.csv', [['', '', ...TOP.slice(2)], LOWER]);
    const { s, profile } = await suggestAndLoad(path);
    expect(s.reviews).toContainEqual({
      path: 'source',
      text: expect.stringContaining('column(s) A, B hold values but have no name in the header (row 2)'),
    });
    expect(profile.fields.qty!.source).toBe('{Quantity}');
  });
});

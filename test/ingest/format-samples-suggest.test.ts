/**
 * `check --suggest` for every format an ERP writes: each sample in samples/ outside CSV and xlsx (the SAP list saved
 * "Text with Tabs", binary .xls, XML Spreadsheet 2003, an HTML table named .xls, .ods, the SAP list saved
 * "Unconverted") is drafted, the draft's YAML parsed and used unedited, and its ingest compared with the hand
 * profile's in mappings/: the same requisitions, lines, quantities, units, names and prices (and the same ids once
 * the hand profile's prefix is taken off, delivery days, locations and currencies). Before: .xls and .ods refused for NUL
 * bytes, XML 2003 "no data rows", the HTML's XML fragments drafted as column names, the unconverted list cut on `|`
 * with its rule lines and subtotals kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { ingestWith, missingRequired, suggestAndLoad } from './suggest-helpers.ts';

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

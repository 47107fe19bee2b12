/**
 * The comparison workbook as procurement reads it: written, read back with exceljs, and checked cell by cell
 * (values, ranks, totals, coverage, the styles of lowest / missing / not-qualified prices, neutralised text).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Cell, Worksheet } from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildComparison,
  comparisonFileNames,
  writeAwardCsv,
  writeComparisonFiles,
  writeComparisonWorkbook,
} from '../../src/comparison/index.ts';
import type { ComparisonInput } from '../../src/comparison/index.ts';
import { colLetter } from '../../src/comparison/sheets/sheet-common.ts';
import { columnWidthFor } from '../../src/comparison/sheets/text-width.ts';
import { demoInput, GENERATED_AT, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { AWARD_ROWS } from '../../src/comparison/sheets/award-sheet.ts';
import { COMPARISON_COLS as C, COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-comparison-');
});

async function writeAndRead(input: ComparisonInput, name: string): Promise<ExcelJS.Workbook> {
  const file = join(dir, name);
  await writeComparisonWorkbook(input, file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
}

async function csvOf(input: ComparisonInput, name: string): Promise<string[]> {
  const file = join(dir, name);
  await writeAwardCsv(input, file);
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

const sheet = (wb: ExcelJS.Workbook, name: string): Worksheet => {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no sheet ${name}`);
  return ws;
};
/** Cell of supplier group `s` (0-based, display order): part 0 = unit price, 1 = line total, 2 = % of mean, 3 = rank. */
const sup = (ws: Worksheet, row: number, s: number, part: 0 | 1 | 2 | 3): Cell =>
  ws.getCell(row, C.firstSupplier + s * C.perSupplier + part);
const lineRow = (i: number): number => R.firstLine + i;
const fillOf = (c: Cell): string | undefined =>
  c.fill && c.fill.type === 'pattern' && c.fill.pattern !== 'none'
    ? `${c.fill.pattern}:${c.fill.fgColor?.argb}`
    : undefined;
const notesText = (wb: ExcelJS.Workbook): string =>
  sheet(wb, 'Notes')
    .getColumn(2)
    .values.filter((v) => typeof v === 'string')
    .join('\n');

describe('comparison workbook: realistic RFQ (8 lines, 5 suppliers, one not qualified, one missing price, a tie)', () => {
  let wb: ExcelJS.Workbook;
  let ws: Worksheet;
  beforeAll(async () => {
    wb = await writeAndRead(demoInput(), 'demo.xlsx');
    ws = sheet(wb, 'Comparison');
  });

  it('has the four sheets and a header block naming RFQ, version, status, requisition and time zone', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Comparison', 'Suppliers', 'Award', 'Notes']);
    expect(ws.getCell(R.title, 1).value).toBe('Quote comparison · RFQ 117 · Office IT refresh Q3 · version 1');
    expect(String(ws.getCell(R.legend, 1).value)).toMatch(/\. Times in Europe\/Berlin \(UTC\+02:00/);
    expect(ws.getCell(R.metaFirst, 2).value).toBe('117 / 5021');
    expect(ws.getCell(R.metaFirst, 4).value).toBe('Acme Manufacturing GmbH');
    expect(ws.getCell(R.metaFirst + 1, 4).value).toBe(
      'closed (service status: Active) · award DRAFT (summary below the lines)',
    );
    expect(ws.getCell(R.metaFirst + 4, 4).value).toBe(
      'REQ-2026-0042 (profile sap-me5a) from sap_export_2026-06-01.csv',
    );
  });

  it('writes dates as real Excel dates showing the wall-clock time of the named zone', () => {
    // rfq_date 08:00 UTC is 10:00 in Berlin (summer time); the cell holds that wall-clock time.
    const rfqDate = ws.getCell(R.metaFirst + 1, 2);
    expect(rfqDate.value).toBeInstanceOf(Date);
    expect((rfqDate.value as Date).toISOString()).toBe('2026-06-01T10:00:00.000Z');
    expect(rfqDate.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect((ws.getCell(R.metaFirst + 4, 2).value as Date).toISOString()).toBe('2026-06-16T09:30:00.000Z');
  });

  it('orders supplier groups by rank (full coverage by total, then partial, then not qualified) and labels them', () => {
    const names = [0, 1, 2, 3, 4].map((s) => sup(ws, R.supplierName, s, 0).value);
    expect(names).toEqual([
      'Nordic Office Supply AB',
      'Bürotechnik Müller & Söhne KG',
      'TechPartner Solutions',
      'Hanse IT Distribution GmbH',
      'Cheap Imports Ltd',
    ]);
    expect(sup(ws, R.supplierInfo, 0, 0).value).toBe('key 101 · rev 2 · no decision yet');
    expect(sup(ws, R.supplierInfo, 4, 0).value).toBe('key 310 · rev 1 · not qualified');
    expect(ws.getCell(R.columnHeader, C.firstSupplier).value).toBe('Unit price');
    expect(ws.getCell(R.columnHeader, C.firstSupplier + 1).value).toBe('Line total');
    expect(ws.getCell(R.columnHeader, C.firstSupplier + 2).value).toBe('% of mean');
    expect(ws.getCell(R.columnHeader, C.firstSupplier + 3).value).toBe('Rank');
  });

  it('gives per-supplier totals, coverage, rank by total and deviation from the best total', () => {
    expect([0, 1, 2, 3, 4].map((s) => sup(ws, R.total, s, 0).value)).toEqual([50972.5, 50987.5, 50990, 48975, 38905]);
    expect(sup(ws, R.coverage, 0, 0).value).toBe('8 of 8 (100%)');
    expect(sup(ws, R.coverage, 3, 0).value).toBe('7 of 8 (88%)');
    expect([0, 1, 2, 3, 4].map((s) => sup(ws, R.rankByTotal, s, 0).value)).toEqual([
      1,
      2,
      3,
      '— partial',
      '— not qualified',
    ]);
    expect(sup(ws, R.deviation, 0, 0).value).toBe(0);
    expect(sup(ws, R.deviation, 1, 0).value).toBeCloseTo(15 / 50972.5, 12);
    expect(sup(ws, R.deviation, 3, 0).value).toBeNull(); // partial coverage: not comparable
  });

  it('writes per line the estimate, eligible statistics, best supplier and savings', () => {
    const r = lineRow(0); // PR-4711-10: 25 laptops, estimate 30,000
    expect(ws.getCell(r, C.externalId).value).toBe('PR-4711-10');
    expect(ws.getCell(r, C.qty).value).toBe(25);
    expect(ws.getCell(r, C.estTotal).value).toBe(30000);
    expect(ws.getCell(r, C.estUnit).value).toBe(1200);
    expect(ws.getCell(r, C.quotes).value).toBe(4); // the not-qualified 899.00 does not count
    expect(ws.getCell(r, C.lowest).value).toBe(1099);
    expect(ws.getCell(r, C.highest).value).toBe(1175);
    expect(ws.getCell(r, C.mean).value).toBe(1137);
    expect(ws.getCell(r, C.bestSupplier).value).toBe('Hanse IT Distribution GmbH');
    expect(ws.getCell(r, C.bestLineTotal).value).toBe(27475);
    expect(ws.getCell(r, C.savings).value).toBe(2525);
    expect(ws.getCell(r, C.savingsPct).value).toBeCloseTo(2525 / 30000, 6);
  });

  it('writes unit price, line total and rank per supplier; the lowest qualified price stands out', () => {
    const r = lineRow(0);
    expect([0, 1, 2, 3].map((s) => sup(ws, r, s, 0).value)).toEqual([1149, 1175, 1125, 1099]);
    expect([0, 1, 2, 3].map((s) => sup(ws, r, s, 1).value)).toEqual([28725, 29375, 28125, 27475]);
    expect([0, 1, 2, 3].map((s) => sup(ws, r, s, 3).value)).toEqual([3, 4, 2, 1]);
    expect(fillOf(sup(ws, r, 3, 0))).toBe('solid:FFC6EFCE');
    expect(sup(ws, r, 3, 0).font?.bold).toBe(true);
    expect(fillOf(sup(ws, r, 0, 0))).toBeUndefined();
    expect(sup(ws, r, 0, 0).numFmt).toBe('#,##0.00##');
    expect(sup(ws, r, 0, 1).numFmt).toBe('#,##0.00');
  });

  it('shares rank 1 on a tie and says so at the best supplier', () => {
    const r = lineRow(2); // 279.00 from Bürotechnik (s1) and Hanse (s3); Hanse quoted earlier
    expect(sup(ws, r, 1, 3).value).toBe(1);
    expect(sup(ws, r, 3, 3).value).toBe(1);
    expect(sup(ws, r, 0, 3).value).toBe(3);
    expect(fillOf(sup(ws, r, 1, 0))).toBe('solid:FFC6EFCE');
    expect(fillOf(sup(ws, r, 3, 0))).toBe('solid:FFC6EFCE');
    expect(ws.getCell(r, C.bestSupplier).value).toBe('Hanse IT Distribution GmbH (tie ×2)');
    expect(notesText(wb)).toMatch(/Line PR-4711-30 \(line_id L3\): 2 suppliers tie at unit price 279/);
  });

  it('leaves a missing price visibly empty (hatched, never 0) and greys not-qualified suppliers', () => {
    const r = lineRow(7); // Hanse left L8 without a price
    const missing = sup(ws, r, 3, 0);
    expect(missing.value).toBeNull();
    expect(fillOf(missing)).toBe('lightUp:FFBFBFBF');
    expect(sup(ws, r, 3, 1).value).toBeNull();
    expect(fillOf(sup(ws, r, 3, 1))).toBe('lightUp:FFBFBFBF');
    expect(sup(ws, r, 3, 3).value).toBeNull();
    const nq = sup(ws, lineRow(0), 4, 0);
    expect(nq.value).toBe(899);
    expect(fillOf(nq)).toBe('solid:FFF2F2F2');
    expect(nq.font?.color?.argb).toBe('FF8C8C8C');
    expect(sup(ws, lineRow(0), 4, 3).value).toBeNull(); // not ranked
    expect(fillOf(sup(ws, R.supplierName, 4, 0))).toBe('solid:FFE7E6E6');
  });

  it('writes text starting with = + - @ as neutralised strings, never as formulas', () => {
    const r = lineRow(6);
    const ext = ws.getCell(r, C.externalId);
    expect(ext.value).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(ext.type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell(r, C.product).value).toBe("'@SUM(A1:A2)");
    expect(ws.getCell(r, C.specification).value).toBe("'-2+3");
    const suppliers = sheet(wb, 'Suppliers');
    expect(suppliers.getCell(7, 14).value).toBe(`'=cmd|" /C calc"!A0`);
    let formulas = 0;
    for (const w of wb.worksheets)
      w.eachRow((row) => row.eachCell((c) => void (c.type === ExcelJS.ValueType.Formula && formulas++)));
    expect(formulas).toBe(0);
  });

  it('freezes panes, filters, and prints on one landscape page (8 lines, 5 quotations) with the header rows repeated', () => {
    expect(ws.views[0]).toMatchObject({ state: 'frozen', xSplit: 2, ySplit: R.columnHeader });
    const last = colLetter(C.firstSupplier + 5 * C.perSupplier - 1);
    expect(ws.autoFilter).toBe(`A${R.columnHeader}:${last}${R.columnHeader + 8}`);
    expect(ws.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 1 });
    expect(ws.pageSetup.printTitlesRow).toBe(`${R.supplierName}:${R.columnHeader}`);
    expect(ws.getColumn(C.product).width).toBeGreaterThanOrEqual(columnWidthFor('Laptop 14" business'));
  });

  it('lists every quotation on the Suppliers sheet with date, revision, decision, documents and totals', () => {
    const s = sheet(wb, 'Suppliers');
    const row = (i: number): unknown[] => (s.getRow(4 + i).values as unknown[]).slice(1, 14);
    expect(row(0)).toEqual([
      1,
      'Nordic Office Supply AB',
      '101',
      'no decision yet',
      undefined,
      2,
      new Date('2026-06-09T16:05:00Z'),
      8,
      8,
      1,
      50972.5,
      0,
      0,
    ]);
    expect(row(3).slice(0, 4)).toEqual([undefined, 'Hanse IT Distribution GmbH', 'comp_7', 'no decision yet']);
    expect(row(3)[7]).toBe(7);
    expect(row(3)[9]).toBe(0.875);
    expect(row(3)[12]).toBe(1); // one attachment
    expect(row(4)[3]).toBe('not qualified');
  });

  it('recommends the lowest qualified price per line and shows the award scenarios', () => {
    const a = sheet(wb, 'Award');
    expect(a.getCell(AWARD_ROWS.split, 9).value).toBe(48972.5);
    expect(a.getCell(AWARD_ROWS.split, 7).value).toBe('8 of 8');
    expect(a.getCell(AWARD_ROWS.bestSingle, 6).value).toBe('Nordic Office Supply AB (key 101)');
    expect(a.getCell(AWARD_ROWS.bestSingle, 9).value).toBe(50972.5);
    expect(a.getCell(AWARD_ROWS.splitSaving, 9).value).toBe(2000);
    expect(a.getCell(AWARD_ROWS.estimate, 9).value).toBe(53425);
    const first = AWARD_ROWS.tableHeader + 1;
    // Line 1: Cheap Imports (not qualified) is cheaper but excluded.
    expect((a.getRow(first).values as unknown[]).slice(1, 11)).toEqual([
      'PR-4711-10',
      'L1',
      'Laptop 14" business',
      25,
      'EA',
      'Hanse IT Distribution GmbH',
      'comp_7',
      1099,
      27475,
      'lowest qualified price',
    ]);
    expect(a.getCell(first + 2, 11).value).toMatch(/^tie between 2 suppliers/);
    expect(a.getCell(first + 8, 9).value).toBe(48972.5);
  });

  it('reports the malformed quotation, the time zone and the unit-price assumption in the notes', () => {
    const text = notesText(wb);
    expect(text).toContain(
      'Quotation key 999 could not be read and is not compared: quotation_detail is not an object or array',
    );
    expect(text).toContain('All dates and times are shown in Europe/Berlin.');
    expect(text).toContain(
      'A quotation price is the UNIT price of its line (QUOTATION_PRICE_BASIS=unit); line total = unit price x qty.',
    );
    expect(text).toContain('Quotations without a qualification decision yet count as eligible.');
  });

  it('writes the award CSV for the ERP with exact decimals, neutralised text and RFC 4180 quoting', async () => {
    const rows = await csvOf(demoInput(), 'demo.csv');
    expect(rows).toEqual([
      'rfq_id,rfq_no,external_id,line_id,supplier_key,supplier_name,qty,unit_price,line_total,currency,basis,supersedes',
      '5021,117,PR-4711-10,L1,comp_7,Hanse IT Distribution GmbH,25,1099.00,27475.00,,lowest-qualified-price,',
      '5021,117,PR-4711-20,L2,205,Bürotechnik Müller & Söhne KG,25,185.00,4625.00,,lowest-qualified-price,',
      '5021,117,PR-4711-30,L3,comp_7,Hanse IT Distribution GmbH,40,279.00,11160.00,,lowest-qualified-price,',
      '5021,117,PR-4711-40,L4,205,Bürotechnik Müller & Söhne KG,50,26.90,1345.00,,lowest-qualified-price,',
      '5021,117,PR-4711-50,L5,comp_7,Hanse IT Distribution GmbH,50,12.50,625.00,,lowest-qualified-price,',
      '5021,117,PR-4711-60,L6,205,Bürotechnik Müller & Söhne KG,30,71.50,2145.00,,lowest-qualified-price,',
      `5021,117,"'=HYPERLINK(""http://evil.example"",""x"")",L7,101,Nordic Office Supply AB,10,85.00,850.00,,lowest-qualified-price,`,
      '5021,117,PR-4711-80,L8,205,Bürotechnik Müller & Söhne KG,25,29.90,747.50,,lowest-qualified-price,',
    ]);
  });

  it('writes workbook and award CSV from one calculation', async () => {
    const paths = { workbook: join(dir, 'both', 'demo.xlsx'), award: join(dir, 'both', 'demo.csv') };
    const model = await writeComparisonFiles(demoInput(), paths);
    expect(model.award.splitTotal.toFixed(2)).toBe('48972.50');
    expect(await readFile(paths.award, 'utf8')).toBe(await readFile(join(dir, 'demo.csv'), 'utf8'));
    expect((await readdir(join(dir, 'both'))).sort()).toEqual(['demo.csv', 'demo.xlsx']);
  });

  it('leaves no temporary file behind (written under a temporary name, then renamed)', async () => {
    const names = await readdir(dir);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(names).toContain('demo.xlsx');
  });
});

describe('comparison workbook: edge cases', () => {
  it('breaks a tie for best by earlier quotation date, then by key, with equal prices sharing a rank', async () => {
    const rfq = makeRfq([
      { ext: 'A', product: 'Bolt', qty: 100, est: '50' },
      { ext: 'B', product: 'Nut', qty: 100, est: '20' },
    ]);
    const day = Date.UTC(2026, 0, 5);
    const input: ComparisonInput = {
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [
        quote('10', 'Late Ltd', { L1: '0.40', L2: '0.15' }, { quotation_date: day + 3600_000 }),
        quote('9', 'Same Day Nine', { L1: '0.40', L2: '0.15' }, { quotation_date: day }),
        quote('comp_1', 'Comp One', { L1: '0.40', L2: '0.16' }, { quotation_date: day }),
        quote('11', 'Dear Ltd', { L1: '0.45', L2: '0.15' }, { quotation_date: day - 1 }),
      ],
    };
    const model = buildComparison(input);
    const byKey = (k: string): number => model.suppliers.findIndex((s) => s.key === k);
    const l1 = model.lines[0]!;
    expect(l1.tiedAtBest.map((i) => model.suppliers[i]!.key)).toEqual(['9', 'comp_1', '10']);
    expect(model.suppliers[l1.best!]!.key).toBe('9'); // same date as comp_1: lower key ('9' < 'comp_1')
    expect([byKey('9'), byKey('comp_1'), byKey('10'), byKey('11')].map((i) => l1.ranks[i])).toEqual([1, 1, 1, 4]);
    const l2 = model.lines[1]!;
    expect(model.suppliers[l2.best!]!.key).toBe('11'); // earliest quotation among the 0.15 offers
    expect([byKey('11'), byKey('9'), byKey('10'), byKey('comp_1')].map((i) => l2.ranks[i])).toEqual([1, 1, 1, 4]);
    // Totals 55.00 (key 9 and 10) tie: same rank by total.
    expect(model.suppliers[byKey('9')]!.rankByTotal).toBe(1);
    expect(model.suppliers[byKey('10')]!.rankByTotal).toBe(1);
    expect(model.suppliers[byKey('comp_1')]!.rankByTotal).toBe(3);
    expect(model.counts.ties).toBe(2);
    const rows = await csvOf(input, 'ties.csv');
    // Splitting (L1 to 9, L2 to 11) would save nothing against key 9's 55.00: key 9 gets both lines (ties.test.ts).
    expect(rows.slice(1).map((r) => r.split(',')[4])).toEqual(['9', '9']);
  });

  it('shows lines without any quote as hatched and "no quote", leaves them out of the CSV and notes them', async () => {
    const rfq = makeRfq([
      { ext: 'A', product: 'Cable', qty: 10, est: '100' },
      { ext: 'B', product: 'Unobtainium', qty: 1, est: '1000' },
      { ext: 'C', product: 'Plug', qty: 4, est: '8' },
    ]);
    const input: ComparisonInput = {
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [
        quote('1', 'One', { L1: '9.50', L2: null, L3: '1.99' }),
        quote('2', 'Two', { L1: '9.00', L3: '' }),
        quote('3', 'Three', { L2: null, L3: '2.10' }, { status: 'not qualified' }),
      ],
    };
    const wb = await writeAndRead(input, 'missing.xlsx');
    const ws = sheet(wb, 'Comparison');
    const r = lineRow(1);
    expect(ws.getCell(r, C.bestSupplier).value).toBe('no quote');
    expect(ws.getCell(r, C.quotes).value).toBe(0);
    expect(ws.getCell(r, C.lowest).value).toBeNull();
    for (let s = 0; s < 3; s++) {
      expect(sup(ws, r, s, 0).value).toBeNull();
      expect(fillOf(sup(ws, r, s, 0))).toBe('lightUp:FFBFBFBF');
    }
    expect(sup(ws, lineRow(2), 1, 0).value).toBeNull(); // '' is no price, not 0
    expect(sup(ws, R.coverage, 0, 0).value).toBe('2 of 3 (67%)');
    expect(sup(ws, R.coverage, 1, 0).value).toBe('1 of 3 (33%)');
    expect(sup(ws, R.rankByTotal, 0, 0).value).toBe('— partial');
    const a = sheet(wb, 'Award');
    expect(a.getCell(AWARD_ROWS.tableHeader + 2, 6).value).toBe('not awarded');
    expect(a.getCell(AWARD_ROWS.tableHeader + 2, 11).value).toBe('no quote received');
    expect(a.getCell(AWARD_ROWS.bestSingle, 6).value).toBe('none: no qualified supplier quoted every line');
    expect(a.getCell(AWARD_ROWS.split, 9).value).toBe(97.96); // 90.00 + 7.96
    expect(notesText(wb)).toContain('1 of 3 lines received no quote');
    const rows = await csvOf(input, 'missing.csv');
    expect(rows.slice(1).map((r) => r.split(',')[2])).toEqual(['A', 'C']);
  });

  it('handles a single supplier: every price ranks 1, it is the best single supplier, splitting saves nothing', async () => {
    const rfq = makeRfq([
      { ext: 'A', product: 'Paper A4', qty: 200, est: '900' },
      { ext: 'B', product: 'Toner', qty: 12, est: '960' },
    ]);
    const input: ComparisonInput = {
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [quote('77', 'Solo Supplies', { L1: '4.35', L2: '79.90' }, { status: 'qualified' })],
    };
    const wb = await writeAndRead(input, 'single.xlsx');
    const ws = sheet(wb, 'Comparison');
    expect(sup(ws, lineRow(0), 0, 3).value).toBe(1);
    expect(sup(ws, lineRow(1), 0, 3).value).toBe(1);
    expect(fillOf(sup(ws, lineRow(1), 0, 0))).toBe('solid:FFC6EFCE');
    expect(sup(ws, R.total, 0, 0).value).toBe(1828.8);
    expect(sup(ws, R.deviation, 0, 0).value).toBe(0);
    const a = sheet(wb, 'Award');
    expect(a.getCell(AWARD_ROWS.split, 9).value).toBe(1828.8);
    expect(a.getCell(AWARD_ROWS.bestSingle, 9).value).toBe(1828.8);
    expect(a.getCell(AWARD_ROWS.splitSaving, 9).value).toBe(0);
  });

  it('writes a readable workbook and a header-only CSV when no quotation was received', async () => {
    const input: ComparisonInput = {
      rfq: makeRfq([{ ext: 'A', product: 'Desk', qty: 3, est: '1200' }]),
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [],
    };
    const wb = await writeAndRead(input, 'none.xlsx');
    const ws = sheet(wb, 'Comparison');
    expect(ws.getCell(lineRow(0), C.externalId).value).toBe('A');
    expect(ws.getCell(lineRow(0), C.bestSupplier).value).toBe('no quote');
    expect(ws.getCell(R.columnHeader, C.firstSupplier).value).toBeNull();
    expect(sheet(wb, 'Suppliers').getCell(4, 2).value).toBe('No quotations received.');
    expect(sheet(wb, 'Award').getCell(AWARD_ROWS.tableHeader + 1, 6).value).toBe('not awarded');
    expect(notesText(wb)).toContain('No quotations were received for this RFQ.');
    expect(await csvOf(input, 'none.csv')).toEqual([
      'rfq_id,rfq_no,external_id,line_id,supplier_key,supplier_name,qty,unit_price,line_total,currency,basis,supersedes',
    ]);
  });

  it('puts the version of a revised comparison in the file name and header, comparing the latest revision', async () => {
    const base = demoInput();
    const revised = quote(
      '101',
      'Nordic Office Supply AB',
      { L1: '1049.00', L2: '189.90', L3: '289.00', L4: '27.50', L5: '13.90', L6: '74.00', L7: '85.00', L8: '32.00' },
      { revision_no: 3, quotation_date: Date.UTC(2026, 5, 14, 9, 0) },
    );
    const input = { ...base, version: 2, quotations: [...base.quotations, revised] };
    const names = comparisonFileNames(input.rfq, 2);
    expect(names).toEqual({ workbook: 'RFQ-117-5021-Office IT refresh Q3-v2.xlsx', award: 'RFQ-117-5021-v2.csv' });
    const wb = await writeAndRead(input, names.workbook);
    const ws = sheet(wb, 'Comparison');
    expect(ws.getCell(R.title, 1).value).toBe('Quote comparison · RFQ 117 · Office IT refresh Q3 · version 2');
    expect(sup(ws, R.supplierInfo, 0, 0).value).toBe('key 101 · rev 3 · no decision yet');
    expect(sup(ws, lineRow(0), 0, 0).value).toBe(1049);
    expect(sup(ws, lineRow(0), 0, 3).value).toBe(1);
    expect(ws.getCell(lineRow(0), C.bestSupplier).value).toBe('Nordic Office Supply AB');
    expect(notesText(wb)).toContain(
      'Quotation key 101 appears more than once; revision 3 is compared, the other ignored.',
    );
  });

  it('reports a malformed quotation and unusable prices in the notes without blocking the others', async () => {
    const rfq = makeRfq([
      { ext: 'A', product: 'Chair', qty: 2, est: '400' },
      { ext: 'B', product: 'Lamp', qty: 2, est: '100' },
    ]);
    const input: ComparisonInput = {
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      timeZone: 'Mars/Olympus_Mons',
      quotations: [quote('1', 'Good', { L1: '180', L2: '45' }), quote('2', 'Sloppy', { L1: 'abc', L2: '-5', L9: '1' })],
      invalidQuotations: [
        { reason: 'sup_name: expected string' },
        { quotation_key: 'comp_9', reason: 'revision_no: not an integer' },
      ],
    };
    const wb = await writeAndRead(input, 'malformed.xlsx');
    const ws = sheet(wb, 'Comparison');
    expect(sup(ws, lineRow(0), 0, 0).value).toBe(180);
    expect(sup(ws, lineRow(0), 1, 0).value).toBeNull();
    expect(fillOf(sup(ws, lineRow(0), 1, 0))).toBe('lightUp:FFBFBFBF');
    const text = notesText(wb);
    expect(text).toContain('Quotation without a key could not be read and is not compared: sup_name: expected string');
    expect(text).toContain('Quotation key comp_9 could not be read and is not compared: revision_no: not an integer');
    expect(text).toContain(
      'Sloppy (key 2), line A (line_id L1): price "abc" is not a usable number; shown as no quote.',
    );
    expect(text).toContain('price "-5" is not a usable number');
    expect(text).toContain('Sloppy (key 2) priced line_id L9, which is not on this RFQ; ignored.');
    expect(text).toContain('The configured time zone "Mars/Olympus_Mons" is unknown; dates are shown in UTC.');
    expect(String(ws.getCell(R.legend, 1).value)).toMatch(/\. Times in UTC/);
  });

  it('follows the winning quotation once the RFQ is completed, marks the winner and reports its gaps', async () => {
    const base = demoInput();
    const input: ComparisonInput = { ...base, state: 'completed', winnerKey: 'comp_7' };
    const wb = await writeAndRead(input, 'completed.xlsx');
    const ws = sheet(wb, 'Comparison');
    const hanse = 3;
    expect(sup(ws, R.supplierInfo, hanse, 0).value).toBe('key comp_7 · rev 1 · no decision yet · ★ WINNER');
    expect(fillOf(sup(ws, R.supplierName, hanse, 0))).toBe('solid:FFFFD966');
    const a = sheet(wb, 'Award');
    expect(a.getCell(AWARD_ROWS.winner, 6).value).toBe('Hanse IT Distribution GmbH (key comp_7)');
    expect(a.getCell(AWARD_ROWS.winner, 9).value).toBe(48975);
    expect(a.getCell(AWARD_ROWS.tableHeader + 1, 10).value).toBe('winning quotation');
    expect(a.getCell(AWARD_ROWS.tableHeader + 8, 6).value).toBe('not awarded');
    expect(a.getCell(AWARD_ROWS.tableHeader + 8, 11).value).toBe('the winning quotation has no price for this line');
    const rows = await csvOf(input, 'completed.csv');
    expect(rows).toHaveLength(8); // header + 7 lines: the winner did not price L8
    expect(
      rows
        .slice(1)
        .every((r) => r.includes(',comp_7,Hanse IT Distribution GmbH,') && r.endsWith(',winning-quotation,')),
    ).toBe(true);
    expect(notesText(wb)).toContain(
      'the winning quotation Hanse IT Distribution GmbH (key comp_7) has no price for it',
    );
  });

  it('sums money exactly in decimal (0.1 x 3 + 0.2 x 3 is 0.90, not 0.9000000000000001)', async () => {
    const input: ComparisonInput = {
      rfq: makeRfq([
        { ext: 'A', product: 'Washer', qty: 3, est: '1' },
        { ext: 'B', product: 'Spring', qty: 3, est: '1' },
      ]),
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [quote('1', 'Exact', { L1: '0.1', L2: '0.2' })],
    };
    const model = buildComparison(input);
    expect(model.suppliers[0]!.total.toFixed()).toBe('0.9');
    expect(model.lines[0]!.savings!.toFixed()).toBe('0.7');
    expect((await csvOf(input, 'exact.csv')).slice(1)).toEqual([
      '5021,117,A,L1,1,Exact,3,0.10,0.30,,lowest-qualified-price,',
      '5021,117,B,L2,1,Exact,3,0.20,0.60,,lowest-qualified-price,',
    ]);
  });

  it('shows the mean unit price with the decimals of its quotes (2 to 4), not four decimals of noise', async () => {
    const input: ComparisonInput = {
      rfq: makeRfq([
        { ext: 'A', product: 'Servo motor', qty: 2, est: '826' },
        { ext: 'B', product: 'Screw', qty: 1000, est: '15' },
      ]),
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [
        quote('1', 'One', { L1: '404.46', L2: '0.0125' }),
        quote('2', 'Two', { L1: '417.39', L2: '0.0131' }),
        quote('3', 'Three', { L1: '408.43', L2: '0.02' }),
      ],
    };
    const ws = sheet(await writeAndRead(input, 'mean.xlsx'), 'Comparison');
    expect(ws.getCell(lineRow(0), C.mean).value).toBe(410.09); // 410.0933...
    expect(ws.getCell(lineRow(1), C.mean).value).toBe(0.0152); // 0.015200 (sub-cent prices keep 4 decimals)
  });

  it('bounds text Excel would refuse, and copes with an RFQ without lines (cancelled)', async () => {
    const input: ComparisonInput = {
      rfq: makeRfq([]),
      state: 'cancelled',
      generatedAt: GENERATED_AT,
      quotations: [quote('5', 'Verbose', {}, { notes: `+${'x'.repeat(40_000)}` })],
    };
    const wb = await writeAndRead(input, 'empty.xlsx');
    const note = String(sheet(wb, 'Suppliers').getCell(4, 14).value);
    expect(note.length).toBe(32_767);
    expect(note.startsWith("'+xxx")).toBe(true);
    expect(note.endsWith(' [truncated]')).toBe(true);
    expect(sheet(wb, 'Comparison').getCell(R.coverage, C.firstSupplier).value).toBe('0 of 0 (0%)');
    expect(notesText(wb)).toContain('The RFQ was cancelled: the award recommendation is for information only.');
    expect(await csvOf(input, 'empty.csv')).toHaveLength(1);
  });

  it('names files safely on Windows and Linux shares whatever the title holds', () => {
    const rfq = makeRfq([], { title: 'CON: <Pumps> / "valves" | 50% \\ off? *now*\u0007...' });
    const { workbook, award } = comparisonFileNames(rfq);
    expect(workbook).toBe('RFQ-117-5021-CON_ _Pumps_ _ _valves_ _ 50% _ off_ _now_.xlsx');
    expect(award).toBe('RFQ-117-5021.csv');
    const long = comparisonFileNames(makeRfq([], { title: 'x'.repeat(500) }), 12);
    expect(long.workbook.startsWith('RFQ-117-5021-xxx')).toBe(true);
    expect(long.workbook.endsWith('-v12.xlsx')).toBe(true);
    expect(long.workbook.length).toBeLessThanOrEqual(130);
    expect(comparisonFileNames(makeRfq([], { title: '..', rfq_no: undefined })).workbook).toBe('RFQ-5021.xlsx');
  });
});

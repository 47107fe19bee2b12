/**
 * QUOTATION_PRICE_BASIS (docs/comparison.md#rules-and-assumptions): quotes that are line totals give exact unit prices, totals
 * and award rows with `line_total`; the wrong setting on such quotes (or unit prices read as line totals) raises the
 * warning in the Notes sheet and the header. Files are written and read back with exceljs.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildComparison, writeAwardCsv, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import type { ComparisonInput, PriceBasis } from '../../src/comparison/index.ts';
import { demoInput, GENERATED_AT, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { COMPARISON_COLS as C, COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-basis-');
});

/** Three lines quoted as LINE TOTALS near the estimates (qty 4, 3, 10). */
function lineTotalQuotes(basis: PriceBasis): ComparisonInput {
  return {
    rfq: makeRfq([
      { ext: 'A', product: 'Pump', qty: 4, est: '1000' },
      { ext: 'B', product: 'Seal kit', qty: 3, est: '90' },
      { ext: 'C', product: 'Gasket', qty: 10, est: '25' },
    ]),
    state: 'closed',
    generatedAt: GENERATED_AT,
    priceBasis: basis,
    quotations: [
      quote('1', 'Totals GmbH', { L1: '980.00', L2: '100', L3: '24.50' }, { status: 'qualified' }),
      quote('2', 'Other AG', { L1: '1010.00', L2: '95.00', L3: '26' }, { status: 'qualified' }),
    ],
  };
}

async function csv(input: ComparisonInput, name: string): Promise<string[]> {
  const file = join(dir, name);
  await writeAwardCsv(input, file);
  return (await readFile(file, 'utf8')).trim().split('\r\n');
}

async function workbook(input: ComparisonInput, name: string): Promise<ExcelJS.Workbook> {
  const file = join(dir, name);
  await writeComparisonWorkbook(input, file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
}

const notes = (wb: ExcelJS.Workbook): string =>
  wb
    .getWorksheet('Notes')!
    .getColumn(2)
    .values.filter((v) => typeof v === 'string')
    .join('\n');
const topics = (wb: ExcelJS.Workbook): string[] =>
  wb
    .getWorksheet('Notes')!
    .getColumn(1)
    .values.filter((v): v is string => typeof v === 'string');

describe('QUOTATION_PRICE_BASIS=line_total', () => {
  it('gives exact unit prices, totals and award rows when the quotes are line totals', async () => {
    const input = lineTotalQuotes('line_total');
    const model = buildComparison(input);
    expect(model.priceBasisWarning).toBeUndefined();
    const totals = model.suppliers.find((s) => s.key === '1')!;
    expect(totals.total.toFixed()).toBe('1104.5'); // 980 + 100 + 24.50, never multiplied by qty
    expect(model.lines.map((l) => l.lowest?.toFixed())).toEqual(['245', '31.666667', '2.45']);
    expect(model.award.splitTotal.toFixed()).toBe('1099.5'); // 980 + 95 + 24.50
    expect(await csv(input, 'totals.csv')).toEqual([
      'rfq_id,rfq_no,external_id,line_id,supplier_key,supplier_name,qty,unit_price,line_total,currency,basis,supersedes',
      '5021,117,A,L1,1,Totals GmbH,4,245.00,980.00,,lowest-qualified-price,',
      '5021,117,B,L2,2,Other AG,3,31.666667,95.00,,lowest-qualified-price,',
      '5021,117,C,L3,1,Totals GmbH,10,2.45,24.50,,lowest-qualified-price,',
    ]);
    const wb = await workbook(input, 'totals.xlsx');
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.getCell(R.legend, 1).text).toContain('Price basis: quoted prices are LINE TOTALS');
    expect(ws.getCell(R.legend, 1).text).not.toContain('WARNING');
    // First supplier group (best total first: Other AG 1131, Totals GmbH 1104.5 -> Totals GmbH first).
    expect(ws.getCell(R.firstLine, C.firstSupplier).value).toBe(245);
    expect(ws.getCell(R.firstLine, C.firstSupplier + 1).value).toBe(980);
    expect(ws.getCell(R.total, C.firstSupplier).value).toBe(1104.5);
    expect(notes(wb)).toContain('QUOTATION_PRICE_BASIS=line_total');
  });

  it('warns when line totals are read as unit prices (the default setting on such quotes)', async () => {
    const input = lineTotalQuotes('unit');
    const model = buildComparison(input);
    expect(model.priceBasisWarning).toMatchObject({
      configured: 'unit',
      looksLike: 'line_total',
      compared: 6,
      nearerOther: 6,
    });
    const wb = await workbook(input, 'wrong-unit.xlsx');
    expect(topics(wb)[2]).toBe('Price basis WARNING'); // first note, under the title and the header
    expect(notes(wb)).toMatch(/look like LINE TOTALS, but QUOTATION_PRICE_BASIS=unit/);
    expect(wb.getWorksheet('Comparison')!.getCell(R.legend, 1).text).toContain(
      'WARNING: the quotes look like line totals',
    );
  });

  it('warns when unit prices are read as line totals, and stays quiet when the basis fits', () => {
    // demoInput's quotes are unit prices near the estimated unit prices (qty 10 to 50).
    expect(buildComparison(demoInput()).priceBasisWarning).toBeUndefined();
    expect(buildComparison(demoInput({ priceBasis: 'line_total' })).priceBasisWarning).toMatchObject({
      configured: 'line_total',
      looksLike: 'unit',
    });
  });
});

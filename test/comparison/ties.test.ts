/**
 * Ties (docs/comparison.md#rules-and-assumptions): when splitting the award saves nothing against the best single supplier, the
 * single supplier gets every line (one order instead of two); the tie rule names the lower key when quotation dates are
 * equal.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildComparison, writeAwardCsv, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import type { ComparisonInput } from '../../src/comparison/index.ts';
import { GENERATED_AT, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { AWARD_ROWS } from '../../src/comparison/sheets/award-sheet.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-ties-');
});

const day = Date.UTC(2026, 0, 5);

function tieInput(dates: { a: number; b: number }, bL2 = '21'): ComparisonInput {
  return {
    rfq: makeRfq([
      { ext: 'A', product: 'Bolt', qty: 10, est: '120' },
      { ext: 'B', product: 'Nut', qty: 10, est: '220' },
    ]),
    state: 'closed',
    generatedAt: GENERATED_AT,
    quotations: [
      quote('7', 'Alpha', { L1: '10', L2: '20' }, { quotation_date: dates.a, status: 'qualified' }),
      quote('8', 'Beta', { L1: '10', L2: bL2 }, { quotation_date: dates.b, status: 'qualified' }),
    ],
  };
}

describe('ties', () => {
  it('recommends the best single supplier for every line when splitting saves nothing', async () => {
    // Beta quoted earlier and ties on L1, so L1 alone would go to Beta; splitting saves 0 against Alpha's 300.
    const input = tieInput({ a: day + 3_600_000, b: day });
    const model = buildComparison(input);
    expect(model.award.splitSaving?.toFixed()).toBe('0');
    expect(model.lines.map((l) => model.suppliers[l.award!.supplier]!.name)).toEqual(['Alpha', 'Alpha']);
    expect(model.award.awardedTotal.toFixed()).toBe('300');
    const csv = join(dir, 'single.csv');
    await writeAwardCsv(input, csv);
    expect(
      (await readFile(csv, 'utf8'))
        .trim()
        .split('\r\n')
        .slice(1)
        .map((r) => r.split(',')[5]),
    ).toEqual(['Alpha', 'Alpha']);
    const xlsx = join(dir, 'single.xlsx');
    await writeComparisonWorkbook(input, xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const award = wb.getWorksheet('Award')!;
    expect(award.getCell(AWARD_ROWS.tableHeader + 1, 11).text).toMatch(/single supplier/);
    const notes = wb
      .getWorksheet('Notes')!
      .getColumn(2)
      .values.filter((v) => typeof v === 'string')
      .join('\n');
    expect(notes).toContain(
      'Splitting the award saves nothing against Alpha (key 7): every line is recommended to it (one order instead of 2).',
    );
  });

  it('keeps the split when it saves something', () => {
    const model = buildComparison(tieInput({ a: day + 3_600_000, b: day }, '19'));
    expect(model.lines.map((l) => model.suppliers[l.award!.supplier]!.name)).toEqual(['Beta', 'Beta']);
    const split = buildComparison({
      ...tieInput({ a: day, b: day }),
      quotations: [
        quote('7', 'Alpha', { L1: '9', L2: '20' }, { status: 'qualified' }),
        quote('8', 'Beta', { L1: '10', L2: '19' }, { status: 'qualified' }),
      ],
    });
    expect(split.award.splitSaving?.toFixed()).toBe('10');
    expect(split.lines.map((l) => split.suppliers[l.award!.supplier]!.name)).toEqual(['Alpha', 'Beta']);
  });

  it('says the lower key wins when the quotation dates are equal, and the earlier quotation otherwise', () => {
    const same = buildComparison(tieInput({ a: day, b: day }, '20'));
    const sameTie = same.notes.find((n) => n.topic === 'Ties' && n.text.startsWith('Line A'))!.text;
    expect(sameTie).toContain('Alpha (key 7) is shown as best: the quotation dates are equal, so the lower key wins.');
    const earlier = buildComparison(tieInput({ a: day + 1000, b: day }, '20'));
    const earlierTie = earlier.notes.find((n) => n.topic === 'Ties' && n.text.startsWith('Line A'))!.text;
    expect(earlierTie).toContain('Beta (key 8) is shown as best: its quotation is the earlier one.');
  });
});

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

  it('ranks prices that one double cannot tell apart exactly, and reads every price text decimal.js reads', () => {
    // All four are 10 as doubles: the ranks and the best come from the exact values.
    const model = buildComparison({
      ...tieInput({ a: day, b: day }),
      quotations: [
        quote('7', 'Alpha', { L1: '10.000000000000000002', L2: '0x1.8' }, { status: 'qualified' }),
        quote('8', 'Beta', { L1: '10.000000000000000001', L2: '1.5e0' }, { status: 'qualified' }),
        quote('9', 'Gamma', { L1: '10.0000000000000000010', L2: '+1.50' }, { status: 'qualified' }),
        quote('10', 'Delta', { L1: '0xA', L2: '0b1.1' }, { status: 'qualified' }),
      ],
    });
    const byName = (name: string) => model.suppliers.findIndex((s) => s.name === name);
    const [line] = model.lines;
    expect(['Delta', 'Beta', 'Gamma', 'Alpha'].map((n) => line!.ranks[byName(n)])).toEqual([1, 2, 2, 4]);
    expect(model.suppliers[line!.best!]!.name).toBe('Delta');
    expect(line!.lowest?.toFixed()).toBe('10');
    expect(line!.highest?.toFixed()).toBe('10.000000000000000002');
    // The cells' doubles: hex and binary fractions (which Number() cannot read) as decimal.js reads them.
    expect(model.suppliers.map((s) => [s.unitValues[0], s.unitValues[1], s.lineTotalValues[1]])).toEqual(
      model.suppliers.map(() => [10, 1.5, 15]),
    );
    expect(model.lines[1]!.ranks).toEqual([1, 1, 1, 1]);
  });
});

/**
 * Who was asked and who answered, as procurement reads it in the comparison workbook: how many vendors follow the
 * RFQ's category and how many of them quoted (the header, the award summary, the notes), and on the Suppliers sheet
 * the vendors who did not quote, with the contact person and e-mail the vendor directory gives. A quotation is a
 * vendor's by its key (the vendor's id) or its supplier name (letter case and spacing aside).
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildComparison, writeComparisonWorkbook, type ComparisonInput } from '../../src/comparison/index.ts';
import { demoInput } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { AWARD_SUMMARY_ROWS } from '../../src/comparison/sheets/comparison/comparison-award-summary.ts';
import { COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-responses-');
});

/** demoInput's quotations: 101 Nordic Office Supply AB, comp_7 Hanse IT, 205 Bürotechnik Müller, 310 Cheap Imports, 412 TechPartner. */
const FOLLOWING = [
  { id: '31', name: '  nordic office   SUPPLY ab', contact: 'Ann Berg', email: 'ann@nordic.example' },
  { id: '205', name: 'Müller Bürotechnik (renamed)', contact: 'Hans Müller', email: 'hm@mueller.example' },
  { id: '77', name: 'TechPartner Solutions' },
  { id: '12', name: 'Iris Computers', contact: 'Ivo Iris', email: 'sales@iris.example', phone: '+49 30 1' },
  { id: '13', name: '=Orbit IT Services', contact: 'Olga', email: 'olga@orbit.example' },
];

async function read(input: ComparisonInput, name: string): Promise<ExcelJS.Workbook> {
  const file = join(dir, name);
  await writeComparisonWorkbook(input, file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
}

/** The award summary's first row: below the lines and one blank row. */
const summaryRow = (input: ComparisonInput, r: number): number => R.firstLine + input.rfq.lines.length + 1 + r;

describe('response rate', () => {
  it('counts the following vendors who quoted (by key or name) and lists those who did not, with their contact', async () => {
    const input = demoInput({ vendors: { category: 'IT hardware', following: FOLLOWING, asOf: Date.UTC(2026, 5, 1) } });
    const model = buildComparison(input);
    expect(model.responses).toMatchObject({ following: 5, quoted: 3, others: 2 });
    expect(model.responses!.rate!.toFixed(2)).toBe('0.60');
    expect(model.responses!.notQuoted.map((v) => v.id)).toEqual(['12', '13']);

    const wb = await read(input, 'responses.xlsx');
    const cmp = wb.getWorksheet('Comparison')!;
    expect(cmp.getCell(R.metaFirst + 2, 4).text).toBe(
      'Public / IT hardware · 3 of 5 vendors following "IT hardware" quoted (60%); 2 more quotation(s) from suppliers not following it.',
    );
    const row = summaryRow(input, AWARD_SUMMARY_ROWS.responses);
    expect(cmp.getCell(row, 1).text).toBe('Vendors who quoted');
    expect(cmp.getCell(row, 3).text).toBe('3 of 5');
    expect(cmp.getCell(row, 4).text).toContain(
      '2 did not quote: sheet "Suppliers" lists them with contact and e-mail.',
    );

    const sup = wb.getWorksheet('Suppliers')!;
    // five quotation rows from row 4, a blank row, then the block
    const title = 4 + input.quotations.length + 1;
    expect(sup.getCell(title, 1).text).toBe(
      'Vendors following "IT hardware" who did not quote · 3 of 5 vendors following "IT hardware" quoted (60%); 2 more quotation(s) from suppliers not following it.',
    );
    const cells = (r: number) => [2, 3, 4, 6, 10].map((c) => sup.getCell(r, c).text);
    expect(cells(title + 1)).toEqual(['Vendor', 'Vendor id', 'Contact person', 'E-mail', 'Phone']);
    // a phone number starting with + is neutralised like any text that could be a formula
    expect(cells(title + 2)).toEqual(['Iris Computers', '12', 'Ivo Iris', 'sales@iris.example', "'+49 30 1"]);
    expect(cells(title + 3)).toEqual(["'=Orbit IT Services", '13', 'Olga', 'olga@orbit.example', '']);

    const notes: string[] = [];
    wb.getWorksheet('Notes')!.eachRow((r) => notes.push(`${r.getCell(1).text}: ${r.getCell(2).text}`));
    expect(notes.some((n) => n.startsWith('Vendors: 3 of 5 vendors following "IT hardware" quoted (60%)'))).toBe(true);
  });

  it('says why there is no figure: nobody follows the category, or no vendor directory', async () => {
    const nobody = demoInput({ vendors: { category: 'Unicorns', following: [] } });
    const wb = await read(nobody, 'nobody.xlsx');
    const row = summaryRow(nobody, AWARD_SUMMARY_ROWS.responses);
    expect(wb.getWorksheet('Comparison')!.getCell(row, 3).text).toBe('0 of 0');
    expect(wb.getWorksheet('Comparison')!.getCell(row, 4).text).toBe(
      'No vendor follows "Unicorns": the RFQ reached no supplier through its category (only invited ones).',
    );

    const none = demoInput({
      vendors: { category: 'IT hardware', unavailable: 'the sourcing service has no vendor directory' },
    });
    const wb2 = await read(none, 'none.xlsx');
    const cmp = wb2.getWorksheet('Comparison')!;
    expect(cmp.getCell(summaryRow(none, AWARD_SUMMARY_ROWS.responses), 3).text).toBe('—');
    expect(cmp.getCell(summaryRow(none, AWARD_SUMMARY_ROWS.responses), 4).text).toBe(
      'No response rate: the sourcing service has no vendor directory.',
    );
    // without vendors in the input (tests, older callers) nothing is said
    expect(buildComparison(demoInput()).responses).toBeUndefined();
  });
});

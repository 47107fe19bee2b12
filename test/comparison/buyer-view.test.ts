/**
 * What a buyer reads beside the prices, as SAP ME49 shows it: each quote as % of the line's mean unit price, the
 * supplier's notes and attachment names in the supplier's column group (and per line, the documents attached to
 * that line), and dates the ERP gave without a time shown as dates. Opened with exceljs.
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildComparison, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { demoInput, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { SUPPLIER_PARTS as P, supplierColumn } from '../../src/comparison/sheets/comparison/comparison-layout.ts';
import { COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

let dir = '';
beforeAll(async () => {
  dir = tempDir('rfq-buyer-view-');
});

async function open(
  name: string,
  input: Parameters<typeof writeComparisonWorkbook>[0],
): Promise<{ wb: ExcelJS.Workbook; path: string }> {
  const path = join(dir, name);
  await writeComparisonWorkbook(input, path);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return { wb, path };
}

describe('% of the line mean', () => {
  it('each quote against the mean unit price of the qualified quotes; a not-qualified quote against the same mean; none where no price', async () => {
    const rfq = makeRfq([
      { ext: 'A-1', product: 'Valve', qty: 4, est: '400' },
      { ext: 'A-2', product: 'Seal', qty: 10, est: '50' },
    ]);
    const input = {
      ...demoInput(),
      rfq,
      quotations: [
        quote('1', 'One', { L1: '90.00', L2: '5.00' }, { quotation_date: 1 }),
        quote('2', 'Two', { L1: '100.00', L2: null }, { quotation_date: 2 }),
        quote('3', 'Three', { L1: '110.00', L2: '5.00' }, { quotation_date: 3 }),
        quote('4', 'Four', { L1: '50.00', L2: '2.50' }, { quotation_date: 4, status: 'not qualified' as const }),
      ],
      invalidQuotations: [],
    };
    const model = buildComparison(input);
    const { wb } = await open('pct.xlsx', input);
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.getCell(R.columnHeader, supplierColumn(0) + P.pctOfMean).value).toBe('% of mean');
    const byName = (n: string): number => model.suppliers.findIndex((s) => s.name === n);
    const pct = (line: number, name: string): ExcelJS.CellValue =>
      ws.getCell(R.firstLine + line, supplierColumn(byName(name)) + P.pctOfMean).value;
    // mean of 90, 100, 110 = 100 (the not-qualified 50 is excluded from the mean)
    expect(pct(0, 'One')).toBeCloseTo(0.9, 12);
    expect(pct(0, 'Two')).toBeCloseTo(1.0, 12);
    expect(pct(0, 'Three')).toBeCloseTo(1.1, 12);
    expect(pct(0, 'Four')).toBeCloseTo(0.5, 12);
    expect(pct(1, 'Two')).toBeNull();
    expect(ws.getCell(R.firstLine, supplierColumn(0) + P.pctOfMean).numFmt).toBe('0%');
  });
});

describe('notes and attachments beside the prices', () => {
  it('in the group header of the Comparison sheet, per line as a note on the unit price, and named on the Suppliers sheet', async () => {
    const input = demoInput();
    const q = input.quotations.find((x) => x.quotation_key === '205')!;
    q.notes = 'Prices valid 30 days. Delivery in 2 weeks from order.';
    q.attachments = [
      { name: 'terms.pdf' },
      'certificate-CE.pdf',
      { url: 'https://files.example/q/205/drawing-rev2.dwg?sig=abc' },
    ];
    q.detail.find((d) => d.line_id === 'L3')!.docs = [{ file_name: 'monitor-datasheet.pdf' }];
    const model = buildComparison(input);
    const si = model.suppliers.findIndex((s) => s.key === '205');
    const { wb } = await open('notes.xlsx', input);
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.getCell(R.supplierNotes, 1).value).toBe('Notes · attachments');
    const header = String(ws.getCell(R.supplierNotes, supplierColumn(si)).value);
    expect(header).toContain('Prices valid 30 days. Delivery in 2 weeks from order.');
    expect(header).toContain('Attachments: terms.pdf, certificate-CE.pdf, drawing-rev2.dwg');
    expect(header).toContain('Documents on 1 line(s)');
    // the header cell spans the supplier's whole group
    expect(ws.getCell(R.supplierNotes, supplierColumn(si) + P.rank).isMerged).toBe(true);
    // line 3 (L3) carries its document as a cell note on the unit price; line 1 has none
    const unitL3 = ws.getCell(R.firstLine + 2, supplierColumn(si) + P.unit);
    expect(JSON.stringify(unitL3.note)).toContain('monitor-datasheet.pdf');
    expect(ws.getCell(R.firstLine, supplierColumn(si) + P.unit).note).toBeUndefined();
    // a hostile note stays text
    const hostile = model.suppliers.findIndex((s) => s.key === 'comp_7');
    expect(String(ws.getCell(R.supplierNotes, supplierColumn(hostile)).value)).toMatch(/^'=cmd/);
    expect(String(ws.getCell(R.supplierNotes, supplierColumn(hostile)).value)).toContain('Attachments: offer.pdf');

    const sup = wb.getWorksheet('Suppliers')!;
    expect(sup.getCell(3, 15).value).toBe('Attachments');
    const row = [4, 5, 6, 7, 8].find((r) => sup.getCell(r, 3).value === '205')!;
    expect(sup.getCell(row, 15).value).toBe('terms.pdf\ncertificate-CE.pdf\ndrawing-rev2.dwg');
  });
});

describe('dates the ERP gave without a time', () => {
  it('show as the ERP day (no time) while the RFQ keeps the instant sent for it, even where that instant is the day before in TIME_ZONE', async () => {
    // The ERP's 2026-07-01 in a Berlin profile at 00:00 is 2026-06-30 22:00 UTC: shown in UTC it would be the wrong day.
    const dueAt = Date.UTC(2026, 5, 30, 22, 0);
    const input = demoInput({
      rfq: { ...demoInput().rfq, due_date: dueAt, required_date: Date.UTC(2026, 6, 14, 15, 0) },
      timeZone: 'UTC',
      erpDays: {
        due_date: { day: '2026-07-01', at: dueAt },
        required_date: { day: '2026-07-15', at: Date.UTC(2026, 6, 15, 0, 0) },
      },
    });
    const { wb } = await open('dates.xlsx', input);
    const ws = wb.getWorksheet('Comparison')!;
    const cellBeside = (label: string): ExcelJS.Cell => {
      for (let r = R.metaFirst; r < R.metaFirst + 5; r++) if (ws.getCell(r, 1).value === label) return ws.getCell(r, 2);
      throw new Error(`no ${label}`);
    };
    const due = cellBeside('Due date');
    expect(due.value).toEqual(new Date(Date.UTC(2026, 6, 1)));
    expect(due.numFmt).toBe('yyyy-mm-dd');
    // the RFQ's required date is no longer the instant the ERP's day was sent as (edited on the service): date and time
    const required = cellBeside('Required date');
    expect(required.value).toEqual(new Date(Date.UTC(2026, 6, 14, 15, 0)));
    expect(required.numFmt).toBe('yyyy-mm-dd hh:mm');
    // the RFQ date never came from the ERP
    expect(cellBeside('RFQ date').numFmt).toBe('yyyy-mm-dd hh:mm');
  });
});

// The print layout (one page for a short RFQ, blocks for a long one) is tested in print-layout.test.ts.

describe('a workbook file that cannot be written', () => {
  it('ends the write with the file error instead of waiting forever (a missing folder)', async () => {
    const { buildComparison: build } = await import('../../src/comparison/index.ts');
    const { writeComparisonModel } = await import('../../src/comparison/sheets/workbook.ts');
    const model = build(demoInput());
    const outcome = await Promise.race([
      writeComparisonModel(model, join(dir, 'no-such-folder', 'x.xlsx')).then(
        () => 'written',
        (err: NodeJS.ErrnoException) => err.code,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000)),
    ]);
    expect(outcome).toBe('ENOENT');
  });
});

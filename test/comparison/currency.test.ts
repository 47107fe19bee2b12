/**
 * Currency (docs/comparison.md#rules-and-assumptions): a profile (`currency:`) or REQUISITION_CURRENCY names the currency of its
 * requisitions; it travels with the requisition, is kept with the tracked RFQ, and every amount names it (header,
 * number formats, award file column). One RFQ, one currency: no figure mixes two.
 */
import { readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeAwardCsv, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { loadConfig } from '../../src/settings/config.ts';
import { compileProfile, ingestFile, loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { requisitionSchema } from '../../src/queues/create-rfq.ts';
import { demoInput } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { COMPARISON_COLS as C, COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';
import { AWARD_ROWS } from '../../src/comparison/sheets/award-sheet.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-currency-');
});

describe('currency', () => {
  it('names the currency in the header, in every money and unit-price format, in the notes and in the award file', async () => {
    const input = demoInput({ currency: 'EUR' });
    const xlsx = join(dir, 'eur.xlsx');
    await writeComparisonWorkbook(input, xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.getCell(R.legend, 1).text).toMatch(/^Amounts in EUR\./);
    expect(ws.getCell(R.firstLine, C.firstSupplier).numFmt).toBe('#,##0.00## "EUR"');
    expect(ws.getCell(R.firstLine, C.firstSupplier + 1).numFmt).toBe('#,##0.00 "EUR"');
    expect(ws.getCell(R.total, C.firstSupplier).numFmt).toBe('#,##0.00 "EUR"');
    expect(ws.getCell(R.firstLine, C.estTotal).numFmt).toBe('#,##0.00 "EUR"');
    expect(ws.getCell(R.firstLine, C.qty).numFmt).toBe('#,##0'); // quantities name no currency
    expect(wb.getWorksheet('Award')!.getCell(AWARD_ROWS.split, 9).numFmt).toBe('#,##0.00 "EUR"');
    const notes = wb
      .getWorksheet('Notes')!
      .getColumn(2)
      .values.filter((v) => typeof v === 'string')
      .join('\n');
    expect(notes).toContain('are all in EUR, the currency of the requisition.');
    const csv = join(dir, 'eur.csv');
    await writeAwardCsv(input, csv);
    const [head, first] = (await readFile(csv, 'utf8')).split('\r\n');
    expect(head).toBe(
      'rfq_id,rfq_no,external_id,line_id,supplier_key,supplier_name,qty,unit_price,line_total,currency,basis,supersedes',
    );
    expect(first).toBe(
      '5021,117,PR-4711-10,L1,comp_7,Hanse IT Distribution GmbH,25,1099.00,27475.00,EUR,lowest-qualified-price,',
    );
  });

  it('says so when no currency is known, and names none', async () => {
    const xlsx = join(dir, 'none.xlsx');
    await writeComparisonWorkbook(demoInput(), xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.getCell(R.legend, 1).text).toMatch(/^Currency not named/);
    expect(ws.getCell(R.firstLine, C.firstSupplier + 1).numFmt).toBe('#,##0.00');
  });

  it('a profile names the currency of its requisitions; the create-rfq payload carries it; bad codes are refused', async () => {
    const mappings = join(dir, 'mappings');
    await rm(mappings, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(mappings));
    const yaml = await readFile(join(ROOT, 'mappings/sap-me5a-en.yaml'), 'utf8');
    await writeFile(join(mappings, 'sap-me5a-en.yaml'), `${yaml}\ncurrency: USD\n`);
    const sample = join(dir, 'ME5A_export_EN.csv');
    await copyFile(join(ROOT, 'samples/ME5A_export_EN.csv'), sample);
    const got: Requisition[] = [];
    const limits = {
      maxFileBytes: 50 * 1024 * 1024,
      maxXlsxUncompressedBytes: 200 * 1024 * 1024,
      maxXlsxEntries: 1000,
    };
    await ingestFile(
      sample,
      { profiles: await loadProfiles(mappings), limits, now: new Date('2026-11-22T10:00:00Z') },
      async (r) => void got.push(r),
    );
    expect(got.length).toBeGreaterThan(0);
    expect(new Set(got.map((r) => r.currency))).toEqual(new Set(['USD']));
    expect(requisitionSchema.parse(JSON.parse(JSON.stringify(got[0]))).currency).toBe('USD');
    expect(() =>
      compileProfile(
        {
          fields: { requisition: '{a}', external_id: '{b}', product_name: '{c}', qty: '{d}', due_date: '{e}' },
          currency: 'usd',
        },
        'x.yaml',
      ),
    ).toThrow(/mapping profile x\.yaml: field currency: is an ISO 4217 code/);
    expect(() => loadConfig({ REQUISITION_CURRENCY: 'Euro' })).toThrow(/REQUISITION_CURRENCY/);
  });
});

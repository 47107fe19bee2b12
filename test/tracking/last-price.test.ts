/**
 * The last price paid (issue 37): an RFQ awarded once, then a second RFQ for the same material shows, on each line
 * of its Comparison sheet, the first award's unit price, date and supplier, and each quote's difference from it; the
 * award summary gives the awarded total against the last prices. The product is the ERP's material number when the
 * requisition gave one (the names differ here), else the name and unit. Real Redis, the sandbox over HTTP, the
 * project's poll, quotations and comparison jobs.
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPARISON_COLS as C, SUPPLIER_PARTS as P } from '../../src/comparison/sheets/comparison/comparison-layout.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { writeAccountOverview } from '../../src/awarding/overview.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

const pipeline = usePipeline();
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Line {
  product: string;
  code?: string;
  qty: number;
}

/** Creates an RFQ on the sandbox and tracks it as create-rfq does, with the requisition's material numbers. */
async function createRfq(harness: PollingHarness, title: string, lines: Line[]): Promise<number> {
  const { _id } = await harness.ctx.client.createRfq({
    title,
    due_date: String(Date.UTC(2031, 0, 15)),
    rfq_type: 'Public',
    lines: lines.map((l, i) => ({
      product_name: l.product,
      uom: 'PC',
      qty: l.qty,
      estimated_price: l.qty * 100,
      external_id: `${title}-${i + 1}`,
    })),
  });
  await trackRfq(harness.ctx, {
    rfqId: _id,
    requisition: {
      key: title,
      sourceFile: `${title}.csv`,
      profile: 'generic',
      title,
      lines: lines.map((l, i) => ({
        external_id: `${title}-${i + 1}`,
        product_name: l.product,
        uom: 'PC',
        qty: l.qty,
        estimated_price: l.qty * 100,
        ...(l.code !== undefined ? { product_code: l.code } : {}),
      })),
    } as Parameters<typeof trackRfq>[1]['requisition'],
  });
  return _id;
}

/** Quotes, decides every quotation (qualified) and closes: a final award, the lowest price of each line. */
async function award(
  harness: PollingHarness,
  id: number,
  quotes: Array<[supplier: string, prices: string[]]>,
): Promise<string> {
  const ctl = pipeline.sandbox.control;
  const lineIds = ctl.getRfq(id)!.lines.map((l) => l.line_id);
  for (const [sup_name, prices] of quotes) {
    const q = ctl.submitQuotation(id, {
      sup_name,
      prices: Object.fromEntries(lineIds.map((l, i) => [l, prices[i] ?? null])),
    });
    ctl.decide(id, String(q.quotation_key), true);
  }
  ctl.advance(id, 'closed');
  await harness.pollAndSettle();
  const rec = await trackedRfq(harness.ctx, id);
  expect(rec?.comparison?.awardCsv, 'a final award').toBeDefined();
  return join(harness.ctx.config.folders.comparisons, rec!.comparison!.workbook);
}

async function comparisonSheet(path: string): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb.getWorksheet('Comparison')!;
}

describe('the last price paid', () => {
  it('a second RFQ for the same material shows the first award: price, date, supplier, each quote against it', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, env: { TIME_ZONE: 'UTC' } });
    // The first RFQ: material 4711 (by code) and a pump known by name and unit only.
    const first = await createRfq(h, 'First', [
      { product: 'Seal kit NBR', code: 'MAT-4711', qty: 10 },
      { product: 'Hydraulic pump', qty: 2 },
    ]);
    const before = Date.now();
    const firstBook = await award(h, first, [
      ['Seals & Co', ['12.50', '900']],
      ['Pumps Ltd', ['14.00', '850.00']],
    ]);
    const after = Date.now();
    // Nothing was bought before: the columns say so rather than staying blank.
    const ws1 = await comparisonSheet(firstBook);
    expect(ws1.getCell(R.firstLine, C.lastPrice).value).toBe('no earlier award');
    expect(ws1.getCell(R.firstLine + 1, C.lastPrice).value).toBe('no earlier award');

    // The second RFQ: the same material under another name (matched by its code), the pump by name (case, spacing).
    const second = await createRfq(h, 'Second', [
      { product: 'Dichtungssatz NBR', code: 'mat-4711', qty: 20 },
      { product: 'hydraulic  PUMP', qty: 1 },
      { product: 'Never bought', qty: 1 },
    ]);
    const secondBook = await award(h, second, [
      ['Seals & Co', ['13.75', '880', '5']],
      ['Newcomer GmbH', ['11.25', '935.00', '6']],
    ]);
    const ws = await comparisonSheet(secondBook);
    const row = (i: number) => ws.getRow(R.firstLine + i);
    // line 1: last paid 12.50 from Seals & Co, on the first award's day
    expect(row(0).getCell(C.lastPrice).value).toBe(12.5);
    const at = row(0).getCell(C.lastDate).value as Date;
    expect(at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(at.getTime()).toBeLessThanOrEqual(after + 1000);
    expect(row(0).getCell(C.lastDate).numFmt).toBe('yyyy-mm-dd');
    expect(row(0).getCell(C.lastSupplier).value).toBe('Seals & Co');
    expect(row(1).getCell(C.lastPrice).value).toBe(850);
    expect(row(1).getCell(C.lastSupplier).value).toBe('Pumps Ltd');
    expect(row(2).getCell(C.lastPrice).value).toBe('no earlier award');
    // each quote against the last price: (13.75 - 12.50) / 12.50 = +10 %, (11.25 - 12.50) / 12.50 = -10 %
    const names = [0, 1].map((si) => ws.getCell(R.supplierName, C.firstSupplier + si * C.perSupplier).value);
    const col = (name: string) => C.firstSupplier + names.indexOf(name) * C.perSupplier + P.vsLast;
    expect(row(0).getCell(col('Seals & Co')).value).toBeCloseTo(0.1, 10);
    expect(row(0).getCell(col('Newcomer GmbH')).value).toBeCloseTo(-0.1, 10);
    expect(row(1).getCell(col('Seals & Co')).value).toBeCloseTo(880 / 850 - 1, 10);
    expect(row(1).getCell(col('Newcomer GmbH')).value).toBeCloseTo(935 / 850 - 1, 10);
    expect(row(2).getCell(col('Seals & Co')).value).toBeNull();
    // the award summary: awarded 20 x 11.25 + 1 x 880 = 1,105.00 against 20 x 12.50 + 1 x 850 = 1,100.00
    const texts: string[] = [];
    ws.eachRow((r) => r.eachCell((c) => void texts.push(String(c.value))));
    expect(texts).toContain('Against last prices');
    expect(texts.join('\n')).toMatch(
      /2 of 3 awarded lines bought before: awarded now at 1,105\.00, at the last prices 1,100\.00; dearer by 5\.00 \(\+0\.5%\)/,
    );

    // The overview's Prices sheet: per product the last awards, newest first, and the trend.
    const { path } = await writeAccountOverview(h.ctx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const prices = wb.getWorksheet('Prices')!;
    const rows = new Map<string, unknown[]>();
    prices.eachRow((r, n) => {
      if (n > 3) rows.set(String(r.getCell(1).value), (r.values as unknown[]).slice(1));
    });
    expect([...rows.keys()]).toEqual(['Dichtungssatz NBR', 'hydraulic  PUMP', 'Never bought']);
    const seal = rows.get('Dichtungssatz NBR')!;
    expect(seal.slice(0, 3)).toEqual(['Dichtungssatz NBR', 'PC', 'mat-4711']);
    expect([seal[3], seal[5], seal[6]]).toEqual([11.25, 'Newcomer GmbH', `RFQ ${second}`]);
    expect([seal[7], seal[9]]).toEqual([12.5, 'Seals & Co']);
    expect(seal[15]).toBeCloseTo(-0.1, 10);
    expect(seal[16]).toBe('falling');
    expect(rows.get('Never bought')![15]).toBeUndefined();
  });
});

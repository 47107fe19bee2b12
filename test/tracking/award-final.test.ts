/**
 * An award file is something the ERP may act on (docs/comparison.md#the-quote-comparison-workbook-and-the-award-file): it exists
 * only once the award is final (every quotation decided, or the RFQ completed with its winner). Before that the
 * workbook carries a draft. Real Redis, the sandbox over HTTP, the project's poll, quotations and comparison jobs.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { readAwardCsv } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 5 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const list = (dir: string, ext: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(ext))
      .sort();
  } catch {
    return [];
  }
};

async function awardSheetText(path: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: string[] = [];
  wb.getWorksheet('Award')!.eachRow((row) => row.eachCell((c) => out.push(c.text)));
  return out.join('\n');
}

describe('award file only when the award is final', () => {
  it('closed with undecided quotations: a draft workbook and no award file; all decided: the lowest qualified; completed: the winner, superseding', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox });
    const id = await h.createTrackedRfq('Final', 2);
    const [l1, l2] = pipeline.sandbox.control.getRfq(id)!.lines.map((l) => l.line_id);
    const ctl = pipeline.sandbox.control;
    const cheap = ctl.submitQuotation(id, { sup_name: 'Cheap', prices: { [l1!]: '5', [l2!]: '6' } });
    const solid = ctl.submitQuotation(id, { sup_name: 'Solid', prices: { [l1!]: '7', [l2!]: '8' } });
    await h.pollAndSettle();
    ctl.advance(id, 'closed');
    await h.pollAndSettle();

    let rec = await trackedRfq(h.ctx, id);
    expect(rec?.comparison?.version).toBe(1);
    expect(list(h.ctx.config.folders.comparisons, '.xlsx')).toHaveLength(1);
    expect(list(h.ctx.config.folders.awards, '.csv')).toEqual([]);
    expect(rec?.comparison?.awardCsv).toBeUndefined();
    const draft = await awardSheetText(join(h.ctx.config.folders.comparisons, rec!.comparison!.workbook));
    expect(draft).toMatch(/DRAFT/);
    expect(draft).toMatch(/Cheap/);

    // Cheap is not qualified, Solid is: every quotation decided, the award is final (lowest qualified = Solid).
    ctl.decide(id, String(cheap.quotation_key), false);
    await h.pollAndSettle();
    ctl.decide(id, String(solid.quotation_key), true);
    await h.pollAndSettle();
    rec = await trackedRfq(h.ctx, id);
    expect(list(h.ctx.config.folders.awards, '.csv')).toHaveLength(1);
    const v = rec!.comparison!.version;
    expect(rec?.comparison?.awardCsv).toMatch(new RegExp(`-v${v}\\.csv$`));
    const decided = readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!));
    expect(decided.map((r) => [r.supplier_name, r.unit_price, r.basis, r.supersedes])).toEqual([
      ['Solid', '7.00', 'lowest-qualified-price', ''],
      ['Solid', '8.00', 'lowest-qualified-price', ''],
    ]);
    expect(await awardSheetText(join(h.ctx.config.folders.comparisons, rec!.comparison!.workbook))).not.toMatch(
      /DRAFT/,
    );
    const firstAward = rec!.comparison!.awardCsv!;

    // Completed with Solid winning: a new award file that follows the winning quotation and names what it supersedes.
    ctl.pickWinner(id, String(solid.quotation_key));
    ctl.advance(id, 'completed');
    await h.pollAndSettle();
    rec = await trackedRfq(h.ctx, id);
    expect(list(h.ctx.config.folders.awards, '.csv')).toHaveLength(2);
    const won = readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!));
    expect(won.map((r) => [r.supplier_key, r.qty, r.unit_price, r.line_total, r.basis, r.supersedes])).toEqual([
      [String(solid.quotation_key), '2', '7.00', '14.00', 'winning-quotation', firstAward],
      [String(solid.quotation_key), '4', '8.00', '32.00', 'winning-quotation', firstAward],
    ]);
  });

  it('completed straight from undecided quotations: the award file follows the winning quotation exactly', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox });
    const id = await h.createTrackedRfq('Straight', 3);
    const [l1, l2, l3] = pipeline.sandbox.control.getRfq(id)!.lines.map((l) => l.line_id);
    const ctl = pipeline.sandbox.control;
    ctl.submitQuotation(id, { sup_name: 'Low', prices: { [l1!]: '1.10', [l2!]: '2.20', [l3!]: '3.30' } });
    const win = ctl.submitQuotation(id, {
      sup_name: 'Winner & Co',
      prices: { [l1!]: '1.25', [l2!]: '2.5', [l3!]: null },
    });
    ctl.advance(id, 'closed');
    await h.pollAndSettle();
    expect(list(h.ctx.config.folders.awards, '.csv')).toEqual([]);
    ctl.pickWinner(id, String(win.quotation_key));
    ctl.advance(id, 'completed');
    await h.pollAndSettle();
    const rec = await trackedRfq(h.ctx, id);
    expect(list(h.ctx.config.folders.awards, '.csv')).toEqual([rec!.comparison!.awardCsv]);
    const rows = readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!));
    // The winner did not price line 3: it is not awarded (the workbook says why), never given to another supplier.
    expect(rows.map((r) => [r.line_id, r.supplier_name, r.unit_price, r.line_total, r.supersedes])).toEqual([
      [l1, 'Winner & Co', '1.25', '2.50', ''],
      [l2, 'Winner & Co', '2.50', '10.00', ''],
    ]);
  });

  it('QUOTATION_PRICE_BASIS=line_total: the award file holds the quoted line totals and exact unit prices; the default setting on the same quotes warns in the record', async () => {
    // Lines of createTrackedRfq: qty 2, 4, 6 with estimated totals 100, 200, 300 (estimated unit 50 each).
    for (const [basis, dirName] of [
      ['line_total', 'lt'],
      ['unit', 'u'],
    ] as const) {
      h = await pollingHarness({
        redisUrl: pipeline.redisUrl,
        sandbox: pipeline.sandbox,
        env: { QUOTATION_PRICE_BASIS: basis },
      });
      const id = await h.createTrackedRfq(`Basis-${dirName}`, 3);
      const [l1, l2, l3] = pipeline.sandbox.control.getRfq(id)!.lines.map((l) => l.line_id);
      const q = pipeline.sandbox.control.submitQuotation(id, {
        sup_name: 'Totals',
        prices: { [l1!]: '98', [l2!]: '205', [l3!]: '290.10' },
      });
      pipeline.sandbox.control.decide(id, String(q.quotation_key), true);
      pipeline.sandbox.control.advance(id, 'closed');
      await h.pollAndSettle();
      const rec = await trackedRfq(h.ctx, id);
      const rows = readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!));
      if (basis === 'line_total') {
        expect(rec?.comparison?.priceBasisWarning).toBeUndefined();
        expect(rows.map((r) => [r.qty, r.unit_price, r.line_total])).toEqual([
          ['2', '49.00', '98.00'],
          ['4', '51.25', '205.00'],
          ['6', '48.35', '290.10'],
        ]);
      } else {
        expect(rec?.comparison?.priceBasisWarning).toMatch(/look like LINE TOTALS, but QUOTATION_PRICE_BASIS=unit/);
        expect(rows.map((r) => r.line_total)).toEqual(['196.00', '820.00', '1740.60']);
      }
      await h.close();
      h = undefined;
    }
  });

  it('keeps the currency with the tracked RFQ (REQUISITION_CURRENCY when the profile names none) and writes it in the award file', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { REQUISITION_CURRENCY: 'EUR' },
    });
    const id = await h.createTrackedRfq('Euro', 1);
    const [l1] = pipeline.sandbox.control.getRfq(id)!.lines.map((l) => l.line_id);
    const q = pipeline.sandbox.control.submitQuotation(id, { sup_name: 'Only', prices: { [l1!]: '12.5' } });
    pipeline.sandbox.control.decide(id, String(q.quotation_key), true);
    pipeline.sandbox.control.advance(id, 'closed');
    await h.pollAndSettle();
    const rec = await trackedRfq(h.ctx, id);
    expect(rec?.requisition?.currency).toBe('EUR');
    expect(
      readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!)).map((r) => [
        r.line_total,
        r.currency,
      ]),
    ).toEqual([['25.00', 'EUR']]);
  });
});

/**
 * Polling end to end: real Redis, the sandbox over HTTP (small pages, so listings take several), BullMQ workers
 * running jobs/poll.ts, jobs/quotations.ts and jobs/comparison.ts. Files are read back only as far as the version
 * and the winner (the workbook's content is tested with the comparison module).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { runQuotations } from '../../src/awarding/quotations-runner.ts';
import { trackingStatus, pendingWork, trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { readAwardCsv } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 3 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(env: Record<string, string> = {}): Promise<PollingHarness> {
  h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, env });
  return h;
}

function lineIds(rfqId: number): string[] {
  return pipeline.sandbox.control.getRfq(rfqId)!.lines.map((l) => l.line_id);
}

function comparisons(h: PollingHarness): string[] {
  try {
    return readdirSync(h.ctx.config.folders.comparisons)
      .filter((f) => f.endsWith('.xlsx'))
      .sort();
  } catch {
    return [];
  }
}

describe('polling: transitions of tracked RFQs', () => {
  it('open -> closed writes workbook v1, a revision writes v2, completed writes the award with the winner', async () => {
    const h = await harness();
    // Other RFQs of the account (not tracked) fill the lists across pages.
    for (let i = 0; i < 7; i++)
      await h.ctx.client.createRfq({
        title: `Other ${i}`,
        due_date: String(Date.UTC(2031, 0, 1)),
        rfq_type: 'Public',
        lines: [{ product_name: 'x', qty: 1, external_id: `o-${i}` }],
      });
    const id = await h.createTrackedRfq('Pumps');
    const [l1, l2, l3] = lineIds(id);
    const ctl = pipeline.sandbox.control;
    const a = ctl.submitQuotation(id, { sup_name: 'Acme', prices: { [l1!]: '10.50', [l2!]: '20', [l3!]: '5' } });
    const b = ctl.submitQuotation(id, { sup_name: 'Bolt', prices: { [l1!]: '11', [l2!]: '19.99', [l3!]: '6' } });

    await h.pollAndSettle();
    let rec = await trackedRfq(h.ctx, id);
    expect(rec?.state).toBe('open');
    expect(rec?.transitions.map((t) => [t.from, t.to])).toEqual([['created', 'open']]);
    expect(comparisons(h)).toEqual([]);

    ctl.advance(id, 'closed');
    const beforeClose = Date.now();
    await h.pollAndSettle();
    rec = await trackedRfq(h.ctx, id);
    expect(rec?.state).toBe('closed');
    expect(rec?.transitions.at(-1)).toMatchObject({ from: 'open', to: 'closed' });
    expect(rec!.transitions.at(-1)!.at).toBeGreaterThanOrEqual(beforeClose);
    expect(rec?.comparison).toMatchObject({
      version: 1,
      award: false,
      revisions: { [String(a.quotation_key)]: 0, [String(b.quotation_key)]: 0 },
    });
    expect(comparisons(h)).toEqual([rec!.comparison!.workbook]);
    expect(rec!.comparison!.workbook).toMatch(/-v1\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(h.ctx.config.folders.comparisons, rec!.comparison!.workbook));
    expect(wb.getWorksheet('Comparison')).toBeDefined();

    // A quiet poll writes nothing new.
    await h.pollAndSettle();
    expect((await trackedRfq(h.ctx, id))?.comparison?.version).toBe(1);

    // Bolt revises its quotation after the workbook was written: v2.
    ctl.submitQuotation(id, { sup_name: 'Bolt', prices: { [l1!]: '9.75', [l2!]: '19.99', [l3!]: '6' } });
    await h.pollAndSettle();
    rec = await trackedRfq(h.ctx, id);
    expect(rec?.comparison).toMatchObject({ version: 2, revisions: { [String(b.quotation_key)]: 1 } });
    expect(comparisons(h)).toHaveLength(2);
    expect(rec!.comparison!.workbook).toMatch(/-v2\.xlsx$/);

    // Acme wins; the RFQ completes: the award version marks the winner.
    ctl.pickWinner(id, String(a.quotation_key));
    ctl.advance(id, 'completed');
    await h.pollAndSettle();
    rec = await trackedRfq(h.ctx, id);
    expect(rec?.state).toBe('completed');
    expect(rec?.transitions.map((t) => t.to)).toEqual(['open', 'closed', 'completed']);
    expect(rec?.comparison).toMatchObject({ version: 3, award: true, winnerKey: String(a.quotation_key) });
    // The job's result names the winner as people know it (the demo prints it).
    const awardJob = (await h.ctx.queues.comparison.getCompleted()).find((j) => j.returnvalue?.version === 3);
    expect(awardJob?.returnvalue).toMatchObject({ rfqId: id, winnerKey: String(a.quotation_key), winnerName: 'Acme' });
    const award = readAwardCsv(join(h.ctx.config.folders.awards, rec!.comparison!.awardCsv!));
    expect(award).toHaveLength(3);
    expect(new Set(award.map((r) => r.supplier_key))).toEqual(new Set([String(a.quotation_key)]));
    expect(new Set(award.map((r) => r.basis))).toEqual(new Set(['winning-quotation']));

    // Later polls leave the awarded RFQ alone.
    await h.pollAndSettle();
    expect((await trackedRfq(h.ctx, id))?.comparison?.version).toBe(3);
    const status = await trackingStatus(h.ctx);
    expect(status.byState.completed).toBe(1);
    expect(status.lastPoll?.ok).toBe(true);
    expect(status.lastPoll?.listed.open).toBe(7);
    expect((await pendingWork(h.ctx)).done).toBe(true);
  });

  it('records and reports a cancelled RFQ, writing no workbook', async () => {
    const h = await harness();
    const id = await h.createTrackedRfq('Valves');
    await h.pollAndSettle();
    pipeline.sandbox.control.advance(id, 'cancelled');
    await h.pollAndSettle();
    const rec = await trackedRfq(h.ctx, id);
    expect(rec?.state).toBe('cancelled');
    expect(rec?.transitions.map((t) => t.to)).toEqual(['open', 'cancelled']);
    const status = await trackingStatus(h.ctx);
    expect(status.cancelled).toEqual([id]);
    expect(status.lastPoll?.transitions).toEqual([
      expect.objectContaining({ rfqId: id, from: 'open', to: 'cancelled' }),
    ]);
    expect(comparisons(h)).toEqual([]);
  });

  it('flags an RFQ missing from every list after MISSING_POLLS_BEFORE_FLAG polls, and keeps tracking it', async () => {
    const h = await harness({ MISSING_POLLS_BEFORE_FLAG: '3' });
    const present = await h.createTrackedRfq('Present');
    // Tracked (created by this service) but gone from the service's lists.
    const gone = 990_001;
    const { trackRfq } = await import('../../src/tracking/rfq-tracker.ts');
    await trackRfq(h.ctx, {
      rfqId: gone,
      requisition: { key: 'Gone', sourceFile: 'gone.csv', profile: 'generic', title: 'Gone' },
    });
    await h.pollAndSettle();
    await h.pollAndSettle();
    expect((await trackingStatus(h.ctx)).flagged).toEqual([]);
    await h.pollAndSettle();
    const status = await trackingStatus(h.ctx);
    expect(status.flagged).toEqual([gone]);
    expect(status.lastPoll?.newlyFlagged).toEqual([gone]);
    expect(status.byState.created).toBe(1);
    const rec = await trackedRfq(h.ctx, gone);
    expect(rec?.missingPolls).toBe(3);
    expect(rec?.flaggedAt).toBeGreaterThan(0);
    expect((await trackedRfq(h.ctx, present))?.flaggedAt).toBeUndefined();
    await h.pollAndSettle();
    expect((await trackedRfq(h.ctx, gone))?.missingPolls).toBe(4);
    expect((await trackingStatus(h.ctx)).flagged).toEqual([gone]);
  });

  it('reports a malformed quotation in the workbook notes and compares the others', async () => {
    const h = await harness();
    const id = await h.createTrackedRfq('Cables', 2);
    const [l1, l2] = lineIds(id);
    const ctl = pipeline.sandbox.control;
    const good1 = ctl.submitQuotation(id, { sup_name: 'Good One', prices: { [l1!]: '1', [l2!]: '2' } });
    const good2 = ctl.submitQuotation(id, { sup_name: 'Good Two', prices: { [l1!]: '1.5', [l2!]: '1.8' } });
    // A quotation_key longer than the schema allows: the client leaves this one out and says why.
    ctl.submitQuotation(id, {
      sup_name: 'Broken Ltd',
      quotation_key: `comp_${'9'.repeat(250)}`,
      prices: { [l1!]: '0.5' },
    });
    await h.pollAndSettle();
    ctl.advance(id, 'closed');
    await h.pollAndSettle();
    const rec = await trackedRfq(h.ctx, id);
    expect(rec?.comparison?.version).toBe(1);
    expect(Object.keys(rec!.comparison!.revisions).sort()).toEqual(
      [String(good1.quotation_key), String(good2.quotation_key)].sort(),
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(h.ctx.config.folders.comparisons, rec!.comparison!.workbook));
    const notes: string[] = [];
    wb.getWorksheet('Notes')?.eachRow((row) => row.eachCell((c) => notes.push(c.text)));
    expect(notes.join('\n')).toMatch(/quotation_key/);
    // The malformed quotation has no readable decision: the award stays a draft, no award file.
    expect(rec?.comparison?.awardCsv).toBeUndefined();
    expect(notes.join('\n')).toMatch(/DRAFT/);
  });

  it('a snapshot too large for Redis is not stored: the comparison job pulls the quotations again', async () => {
    const h = await harness();
    const id = await h.createTrackedRfq('Bulky', 2);
    const [l1, l2] = lineIds(id);
    const q = pipeline.sandbox.control.submitQuotation(id, { sup_name: 'Solo', prices: { [l1!]: '3', [l2!]: '4' } });
    await h.pollAndSettle();
    pipeline.sandbox.control.advance(id, 'closed');
    const r = await runQuotations(h.ctx, { rfqId: id, reason: 'manual' }, { snapshotMaxBytes: 64 });
    expect(r.version).toBe(1);
    const snapJson = await h.ctx.redis.get(h.ctx.keys.key('trk', 'snap', id));
    expect(JSON.parse(snapJson!)).toMatchObject({ refetch: true, revisions: { [String(q.quotation_key)]: 0 } });
    expect(snapJson).not.toContain('Solo');
    await h.settle();
    const rec = await trackedRfq(h.ctx, id);
    expect(rec?.comparison).toMatchObject({ version: 1, revisions: { [String(q.quotation_key)]: 0 } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(h.ctx.config.folders.comparisons, rec!.comparison!.workbook));
    expect(wb.getWorksheet('Suppliers')!.getCell('B4').text).toBe('Solo');
  });

  it('a poll that fails part-way counts no RFQ missing and keeps its error for status', async () => {
    const h = await harness({ MISSING_POLLS_BEFORE_FLAG: '1', JOB_ATTEMPTS: '1', SOURCING_GET_RETRIES: '0' });
    const id = await h.createTrackedRfq('Fragile');
    await h.pollAndSettle();
    pipeline.sandbox.setFaults({ down: true });
    try {
      await h.pollAndSettle();
    } finally {
      pipeline.sandbox.setFaults({});
    }
    const status = await trackingStatus(h.ctx);
    expect(status.lastPoll?.ok).toBe(false);
    expect(status.lastPoll?.error).toBeTruthy();
    expect(status.lastSuccessfulPollAt).toBeGreaterThan(0);
    expect(status.flagged).toEqual([]);
    expect((await trackedRfq(h.ctx, id))?.missingPolls).toBe(0);
  });

  it('compare on demand writes a workbook for any RFQ of the account from what the service says now', async () => {
    const h = await harness();
    const id = await h.createTrackedRfq('OnDemand', 1);
    const line = lineIds(id)[0]!;
    const q = pipeline.sandbox.control.submitQuotation(id, { sup_name: 'Now Ltd', prices: { [line]: '12' } });
    pipeline.sandbox.control.pickWinner(id, String(q.quotation_key));
    pipeline.sandbox.control.advance(id, 'completed');
    const { writeComparisonNow } = await import('../../src/awarding/compare-now.ts');
    const out = join(h.dir, 'custom.xlsx');
    const r = await writeComparisonNow(h.ctx, id, { out });
    expect(r).toMatchObject({
      workbook: out,
      state: 'completed',
      quotations: 1,
      invalid: 0,
      winnerKey: String(q.quotation_key),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    expect(wb.getWorksheet('Comparison')).toBeDefined();
    await expect(writeComparisonNow(h.ctx, 987_654)).rejects.toThrow(/no status list/);
  });
});

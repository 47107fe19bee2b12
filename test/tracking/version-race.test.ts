/**
 * An RFQ closing and completing close together: the award's quotations pull reads the tracked record (no comparison
 * yet), and while it waits on the service the close's comparison v1 is written, from the snapshot before the award's.
 * The award must still get its own version, with the award file the ERP imports. Seen under load as "every RFQ with
 * its final award file" timing out (test/tracking/erp-line-ids.test.ts), and as one of 2,000 RFQs of a soak left
 * without its award file while every queue was idle. Real Redis, the sandbox over HTTP; the pull is held at a gate
 * so the interleaving is the same on every run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonJobData } from '../../src/queues/comparison.ts';
import { runComparison } from '../../src/awarding/comparison-runner.ts';
import { runPoll } from '../../src/tracking/poll/poll-runner.ts';
import { runQuotations } from '../../src/awarding/quotations-runner.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline();
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The comparison jobs waiting in the queue, run in version order, as a worker would. */
async function runWaitingComparisons(h: PollingHarness): Promise<void> {
  const jobs = await h.ctx.queues.comparison.getJobs(['waiting', 'prioritized', 'delayed']);
  const data = jobs.map((j) => j.data as ComparisonJobData).sort((a, b) => a.version - b.version);
  for (const d of data) await runComparison(h.ctx, d);
}

describe('comparison versions', () => {
  it('a comparison written while the award pull runs: the award still gets its version and its award file', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, workers: false });
    const ctx = h.ctx;
    const id = await h.createTrackedRfq('Valves', 2);
    const ctl = pipeline.sandbox.control;
    const [l1, l2] = ctl.getRfq(id)!.lines.map((l) => l.line_id);
    const a = ctl.submitQuotation(id, { sup_name: 'Acme', prices: { [l1!]: '10', [l2!]: '20' } });
    ctl.submitQuotation(id, { sup_name: 'Bolt', prices: { [l1!]: '11', [l2!]: '19' } });

    // the poll sees each state (the quotations jobs it asks for are run here by hand, in the order of the race)
    const poll = () => runPoll(ctx, { slot: `now~${Date.now()}`, scheduledAt: Date.now() });
    ctl.advance(id, 'closed');
    await poll();
    expect((await runQuotations(ctx, { rfqId: id, reason: 'closed' })).version).toBe(1);
    ctl.pickWinner(id, String(a.quotation_key));
    ctl.advance(id, 'completed');
    await poll();
    expect((await trackedRfq(ctx, id))?.state).toBe('completed');

    // the award's pull, held on the service until v1 is written from the close's snapshot
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    const held = {
      ...ctx,
      client: {
        ...ctx.client,
        listQuotations: async (...args: Parameters<typeof ctx.client.listQuotations>) => {
          reached();
          await gate;
          return ctx.client.listQuotations(...args);
        },
      },
    };
    const award = runQuotations(held, { rfqId: id, reason: 'award' });
    await atGate;
    await runComparison(ctx, { rfqId: id, version: 1 });
    expect((await trackedRfq(ctx, id))?.comparison).toMatchObject({ version: 1, award: false });
    release();
    const pulled = await award;
    expect(pulled.version).toBe(2);

    await runWaitingComparisons(h);
    const rec = (await trackedRfq(ctx, id))!;
    expect(rec.comparison).toMatchObject({ version: 2, award: true, winnerKey: String(a.quotation_key) });
    expect(rec.comparison!.awardCsv).toBeDefined();
    expect(existsSync(join(ctx.config.folders.awards, rec.comparison!.awardCsv!))).toBe(true);
  });
});

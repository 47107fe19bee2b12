/**
 * One poll per cron slot however many workers and schedulers run (real Redis, real BullMQ, node-cron ticking),
 * and a refused token pauses polling instead of failing it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  enqueueScheduledPoll,
  pollSlot,
  startPollSchedule,
  type PollSchedule,
} from '../../src/tracking/poll/poll-schedule.ts';
import { pollHistory } from '../../src/tracking/poll/poll-history.ts';
import { trackingStatus, trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const pipeline = usePipeline({ sandbox: { accounts: { 'sandbox-token': 'Sandbox Buyer Ltd' } } });
const open: Array<PollingHarness | PollSchedule> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await ('task' in x ? x.stop() : x.close());
});

async function harness(o: Partial<Parameters<typeof pollingHarness>[0]> = {}): Promise<PollingHarness> {
  const h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, ...o });
  open.push(h);
  return h;
}

describe('poll schedule', () => {
  it('maps ticks of one slot to one slot, whatever the clock skew within it', () => {
    const t = Date.UTC(2026, 10, 22, 2, 5, 0);
    expect(pollSlot(new Date(t + 400), '*/5 * * * *')).toBe(t / 1000);
    expect(pollSlot(new Date(t + 30_000), '*/5 * * * *')).toBe(t / 1000);
    expect(pollSlot(new Date(t + 1_400), '* * * * * *')).toBe(t / 1000 + 1);
  });

  it('adds one job per slot when several schedulers tick', async () => {
    const h = await harness({ workers: false });
    const t = new Date(Date.UTC(2026, 10, 22, 2, 5, 0, 120));
    const ids = await Promise.all([
      enqueueScheduledPoll(h.ctx, t, '*/5 * * * *'),
      enqueueScheduledPoll(h.ctx, new Date(t.getTime() + 900), '*/5 * * * *'),
    ]);
    expect(ids[0]).toBe(ids[1]);
    expect(await h.ctx.queues.poll.getJobCountByTypes('waiting', 'prioritized', 'delayed')).toBe(1);
  });

  it('two workers with two schedulers run exactly one poll per slot', async () => {
    const a = await harness();
    const b = await harness({ shareWith: a });
    await a.createTrackedRfq('Slots');
    const pattern = '* * * * * *'; // every second, so a few slots pass within the test
    const t0 = Date.now();
    open.push(startPollSchedule(a.ctx, pattern), startPollSchedule(b.ctx, pattern));
    // Until two slots were polled (a loaded machine may take longer than two seconds for it).
    await waitFor('two polls', async () => (await pollHistory(a.ctx)).length >= 2);
    for (const s of open.splice(2)) if ('task' in s) await s.stop();
    const seconds = Math.ceil((Date.now() - t0) / 1000);
    await a.settle();
    const history = await pollHistory(a.ctx);
    const slots = history.map((p) => p.slot);
    expect(slots.length).toBeGreaterThanOrEqual(2);
    expect(new Set(slots).size).toBe(slots.length);
    const completed = await a.ctx.queues.poll.getJobs(['completed']);
    // Two schedulers ticked once a second each: one job per slot (one per second, and the slot under way when they
    // stopped), not one per tick.
    expect(completed.length).toBeLessThanOrEqual(seconds + 1);
    expect(new Set(completed.map((j) => (j.data as { slot: string }).slot)).size).toBe(completed.length);
    // Every poll that ran (not skipped because another still held the lock) is in the history once.
    expect(completed.filter((j) => !(j.returnvalue as { skipped?: string }).skipped).length).toBe(slots.length);
    // Only the first poll saw the RFQ appear.
    expect(history.filter((p) => p.transitions.length > 0)).toHaveLength(1);
  });

  it('a poll asked for while another runs is skipped: one poll at a time per account', async () => {
    const h = await harness({ workers: false });
    await h.createTrackedRfq('Overlap');
    const { runPoll } = await import('../../src/tracking/poll/poll-runner.ts');
    const results = await Promise.all([
      runPoll(h.ctx, { slot: 'now~1', scheduledAt: 1 }),
      runPoll(h.ctx, { slot: 'now~2', scheduledAt: 2 }),
    ]);
    expect(results.filter((r) => r.skipped)).toHaveLength(1);
    expect(results.filter((r) => !r.skipped && r.ok)).toHaveLength(1);
    expect((await pollHistory(h.ctx)).length).toBe(1);
  });

  it('a poll retried for the same slot does not count a missing RFQ twice', async () => {
    const h = await harness({ workers: false });
    const { runPoll } = await import('../../src/tracking/poll/poll-runner.ts');
    const { trackRfq } = await import('../../src/tracking/rfq-tracker.ts');
    await trackRfq(h.ctx, {
      rfqId: 990_777,
      requisition: { key: 'Gone', sourceFile: 'g.csv', profile: 'p', title: 'Gone' },
    });
    await runPoll(h.ctx, { slot: '1000', scheduledAt: 1_000_000 });
    await runPoll(h.ctx, { slot: '1000', scheduledAt: 1_000_000 });
    expect((await trackedRfq(h.ctx, 990_777))?.missingPolls).toBe(1);
    await runPoll(h.ctx, { slot: '1300', scheduledAt: 1_300_000 });
    expect((await trackedRfq(h.ctx, 990_777))?.missingPolls).toBe(2);
  });

  it('a refused token pauses polling (job kept, not failed) and it resumes when the token is replaced', async () => {
    let token = 'sandbox-token';
    const h = await harness({ token: () => token });
    const id = await h.createTrackedRfq('Auth');
    token = 'revoked-token';
    const { enqueuePollNow } = await import('../../src/queues/index.ts');
    await enqueuePollNow(h.ctx);
    // The gate records the refusal first, then the job goes back to delayed.
    await waitFor('the poll job delayed', async () => (await h.ctx.queues.poll.getJobCountByTypes('delayed')) > 0);
    expect((await h.ctx.authGate.status()).paused).toBe(true);
    expect(await h.ctx.queues.poll.getJobCountByTypes('failed')).toBe(0);
    expect(await h.ctx.queues.poll.getJobCountByTypes('delayed')).toBe(1);
    expect((await trackedRfq(h.ctx, id))?.state).toBe('created');

    token = 'sandbox-token';
    await waitFor('the auth gate resumed', async () => !(await h.ctx.authGate.status()).paused);
    // Resuming runs the delayed poll at once (it waits 30 s otherwise): nothing is promoted by hand, so nothing races
    // the gate's own promotion.
    await waitFor('the delayed poll ran', async () => (await trackedRfq(h.ctx, id))?.state === 'open');
    await h.settle();
    expect((await trackingStatus(h.ctx)).lastPoll?.ok).toBe(true);
    expect(await h.ctx.queues.poll.getJobCountByTypes('failed')).toBe(0);
  });

  it('a refused token delays the quotations job (not failed) and the comparison follows once the token is back', async () => {
    let token = 'sandbox-token';
    const h = await harness({ token: () => token });
    const id = await h.createTrackedRfq('AuthQ', 1);
    const line = pipeline.sandbox.control.getRfq(id)!.lines[0]!.line_id;
    pipeline.sandbox.control.submitQuotation(id, { sup_name: 'Only', prices: { [line]: '7' } });
    await h.pollAndSettle();
    pipeline.sandbox.control.advance(id, 'closed');
    token = 'revoked-token';
    const { enqueueQuotations } = await import('../../src/queues/index.ts');
    await enqueueQuotations(h.ctx, { rfqId: id, reason: 'manual' });
    await waitFor(
      'the quotations job delayed',
      async () => (await h.ctx.queues.quotations.getJobCountByTypes('delayed')) > 0,
    );
    expect((await h.ctx.authGate.status()).paused).toBe(true);
    expect(await h.ctx.queues.quotations.getJobCountByTypes('failed')).toBe(0);
    token = 'sandbox-token';
    await waitFor('the auth gate resumed', async () => !(await h.ctx.authGate.status()).paused);
    // Resuming runs the delayed quotations job at once too.
    await waitFor('the comparison', async () => (await trackedRfq(h.ctx, id))?.comparison?.version === 1);
    await h.settle();
    expect((await trackedRfq(h.ctx, id))?.comparison?.version).toBe(1);
  });
});

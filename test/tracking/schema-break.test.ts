/**
 * A listed RFQ whose record breaks the schema (the sandbox's schemaBreakRate: a line qty of 'lots') must not fail
 * the poll: the good RFQs get their transitions, the bad one is placed by its _id in the list it was found in, and
 * the bad field is named in the logs and in the poll result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { trackingFacts } from '../../app/commands.ts';
import { lastPoll } from '../../src/tracking/poll-runner.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness, usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 3 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  pipeline.sandbox.setFaults({});
  await h?.close();
  h = undefined;
});

describe('polling with listed RFQs that break the schema', () => {
  it('good and bad RFQs alike get their transitions; the bad field is in the logs and the poll result', async () => {
    const logs = captureLogs();
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, logger: logs.logger });
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await h.createTrackedRfq(`Schema ${i}`, 2));

    pipeline.sandbox.setFaults({ schemaBreakRate: 0.5 });
    await h.pollAndSettle();
    const first = await lastPoll(h.ctx);
    expect(first?.ok).toBe(true);
    const badIds = new Set(first!.invalid.map((b) => b.rfqId));
    // Both kinds among the tracked RFQs (the sandbox's generator is seeded).
    expect(ids.filter((id) => badIds.has(id)).length).toBeGreaterThan(0);
    expect(ids.filter((id) => !badIds.has(id)).length).toBeGreaterThan(0);
    expect(first!.invalid[0]).toMatchObject({ status: 'open', field: 'lines.0.qty' });
    expect(first!.invalidCount).toBe(first!.invalid.length);
    for (const id of ids) {
      const rec = await trackedRfq(h.ctx, id);
      expect(rec?.state, `RFQ ${id}`).toBe('open');
      expect(rec?.transitions.map((t) => [t.from, t.to])).toEqual([['created', 'open']]);
    }
    const logged = logs.lines().filter((l) => l.event === 'rfq.invalid');
    expect(logged.map((l) => l.rfqId)).toEqual(first!.invalid.map((b) => b.rfqId));
    expect(logged[0]).toMatchObject({ field: 'lines.0.qty', status: 'open' });
    expect(String(logged[0]!.msg)).toContain('breaks the schema: field lines.0.qty');
    // `rfq-sync status` says so too.
    expect((await trackingFacts(h.ctx)).lastPoll?.detail).toContain(
      `; ${first!.invalidCount} listed RFQ(s) break the schema, e.g. RFQ ${first!.invalid[0]!.rfqId} (open) field lines.0.qty`,
    );

    // Every record broken now: a cancellation is still seen, by _id, from the list it is in.
    const [gone] = ids;
    pipeline.sandbox.control.advance(gone!, 'cancelled');
    pipeline.sandbox.setFaults({ schemaBreakRate: 1 });
    await h.pollAndSettle();
    const second = await lastPoll(h.ctx);
    expect(second).toMatchObject({ ok: true, missing: 0, found: ids.length, invalidCount: ids.length });
    expect(second!.transitions).toEqual([expect.objectContaining({ rfqId: gone, from: 'open', to: 'cancelled' })]);
    expect((await trackedRfq(h.ctx, gone!))?.state).toBe('cancelled');
    expect(second!.invalid.find((b) => b.rfqId === gone)).toMatchObject({ status: 'cancelled', field: 'lines.0.qty' });
  });
});

describe('polling through broken list pages', () => {
  it('a page answered 200 with broken JSON is asked again: the poll succeeds and sees every transition', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox });
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await h.createTrackedRfq(`Broken page ${i}`, 1));
    pipeline.sandbox.control.advance(ids[0]!, 'closed');
    const listCalls = () => Object.values(pipeline.sandbox.stats().calls.listRfqs ?? {}).reduce((n, v) => n + v, 0);
    const before = listCalls();

    // 3 pages of open RFQs (page size 3) and one page for each other list: 6 pages a poll. Without asking a
    // broken page again, a 30% rate fails 6 polls in 7.
    pipeline.sandbox.setFaults({ invalidJsonRate: 0.3 });
    for (let round = 0; round < 3; round++) {
      await h.pollAndSettle();
      const poll = await lastPoll(h.ctx);
      expect(poll, `poll ${round}: ${poll?.error}`).toMatchObject({ ok: true, found: ids.length, missing: 0 });
    }
    // Each poll asked some page more than once (the sandbox counted more list calls than 3 x 6 pages).
    expect(listCalls() - before).toBeGreaterThan(3 * 6);
    expect((await trackedRfq(h.ctx, ids[0]!))?.state).toBe('closed');
  });
});

/**
 * Listed RFQs whose records break the schema must not fail the poll. A field that breaks it (the sandbox's
 * schemaBreakRate: a line qty of 'lots') is left out of its RFQ, which is read and placed as any other; the field is
 * kept in the poll result and logged once per RFQ and field, not once per poll. A record whose identity breaks it
 * (a line without its id) is placed by its _id in the list it was found in, and named in the logs and the result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { lastPoll } from '../../src/tracking/poll/poll-history.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 3 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  pipeline.sandbox.setFaults({});
  await h?.close();
  h = undefined;
});

describe('polling with listed RFQs that break the schema', () => {
  it('every RFQ gets its transitions; bad fields are in the poll result every poll and in the logs once', async () => {
    const logs = captureLogs();
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, logger: logs.logger });
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await h.createTrackedRfq(`Schema ${i}`, 2));
    const warned = () =>
      logs
        .lines()
        .filter((l) => l.event === 'rfq.unreadable-field' && l.level === 40 && ids.includes(l.rfqId as number));

    pipeline.sandbox.setFaults({ schemaBreakRate: 0.5 });
    await h.pollAndSettle();
    const first = await lastPoll(h.ctx);
    expect(first).toMatchObject({ ok: true, found: ids.length, missing: 0, invalidCount: 0 });
    const badIds = new Set(first!.unreadable!.map((b) => b.rfqId));
    // Both kinds among the tracked RFQs (the sandbox's generator is seeded).
    expect(ids.filter((id) => badIds.has(id)).length).toBeGreaterThan(0);
    expect(ids.filter((id) => !badIds.has(id)).length).toBeGreaterThan(0);
    expect(first!.unreadable![0]).toMatchObject({ status: 'open', field: 'lines.0.qty' });
    expect(first!.unreadableCount).toBe(first!.unreadable!.length);
    for (const id of ids) {
      const rec = await trackedRfq(h.ctx, id);
      expect(rec?.state, `RFQ ${id}`).toBe('open');
      expect(rec?.transitions.map((t) => [t.from, t.to])).toEqual([['created', 'open']]);
    }
    expect(warned().map((l) => l.rfqId)).toEqual(first!.unreadable!.map((b) => b.rfqId));
    expect(String(warned()[0]!.msg)).toContain('field lines.0.qty cannot be read');
    // `rfq-sync status` says so too.
    expect((await trackingFacts(h.ctx)).lastPoll?.detail).toContain(
      `; ${first!.unreadableCount} field(s) of listed RFQs cannot be read and are left out, e.g. RFQ ${first!.unreadable![0]!.rfqId} field lines.0.qty`,
    );

    // Every record with a bad field now, one with a bad identity: a cancellation is still seen, by _id.
    const [gone, lost] = ids;
    pipeline.sandbox.control.advance(gone!, 'cancelled');
    pipeline.sandbox.control.breakField(lost!, 'lines.0.line_id', null);
    pipeline.sandbox.setFaults({ schemaBreakRate: 1 });
    await h.pollAndSettle();
    const second = await lastPoll(h.ctx);
    expect(second).toMatchObject({ ok: true, missing: 0, found: ids.length, invalidCount: 1 });
    expect(second!.unreadableCount).toBe(ids.length - 1);
    expect(second!.transitions).toEqual([expect.objectContaining({ rfqId: gone, from: 'open', to: 'cancelled' })]);
    expect((await trackedRfq(h.ctx, gone!))?.state).toBe('cancelled');
    expect(second!.invalid).toEqual([
      expect.objectContaining({ rfqId: lost, status: 'open', field: 'lines.0.line_id' }),
    ]);
    expect(
      logs
        .lines()
        .filter((l) => l.event === 'rfq.invalid' && l.level === 40)
        .map((l) => l.rfqId),
    ).toEqual([lost]);
    // each RFQ's bad field said once over both polls (the others' for the first time now)
    const everBad = [...new Set([...badIds, ...ids.filter((id) => id !== lost)])].sort();
    const saidFor = () => warned().map((l) => l.rfqId as number);
    expect(saidFor().sort()).toEqual(everBad);

    await h.pollAndSettle();
    expect(logs.lines().filter((l) => l.event === 'rfq.invalid' && l.level === 40)).toHaveLength(1);
    expect(saidFor()).toHaveLength(everBad.length);
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

/**
 * One bad field never stops the loop (issue 27): one listed RFQ has one field the service writes in a shape that
 * cannot be read (not its identity). Against the sandbox in the legacy shapes and the docs dialect (no external_id
 * echo: lost answers are settled by complete walks and fingerprints), with real Redis and the project's create,
 * poll, quotations and comparison jobs:
 *   - lost create answers are still settled: the walks complete (every requisition exactly one RFQ);
 *   - the poll sees every other RFQ; the broken one is read without the field and placed in its list;
 *   - its workbook is written with a note naming the field, and its award stays a DRAFT (a quantity could change
 *     it), while a broken field that cannot change the award (a due date) leaves that RFQ's award final;
 *   - the field is reported once over several polls, and `status` shows it;
 *   - once the service answers it readably again, a new version is written with the award final.
 * A second case: an RFQ whose identity cannot be read fails its comparison job after its retries with the reason.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { collectStatus } from '../../app/commands/status.ts';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import type { WorkerContext } from '../../jobs/worker.ts';
import { enqueuePollNow } from '../../src/queues/poll.ts';
import { lastPoll } from '../../src/tracking/poll/poll-history.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';
import { waitForQueue } from '../helpers/job-counts.ts';
import { useRedis } from '../helpers/redis.ts';
import { useWorkerRun } from '../helpers/worker-run.ts';

const redis = useRedis();
const run = useWorkerRun(() => redis.url);
const COMPANY = 'Sandbox Buyer Ltd';

async function notesOf(path: string): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: string[] = [];
  wb.getWorksheet('Notes')!.eachRow((row) => out.push(row.getCell(2).text));
  return out;
}

let pollAt = 0;
/** One poll and every job it causes, done. */
async function pollAndSettle(c: WorkerContext): Promise<void> {
  pollAt = Math.max(Date.now(), pollAt + 1);
  await enqueuePollNow(c, pollAt);
  await waitForQueue([c.queues.poll, c.queues.quotations, c.queues.comparison], undefined, 30_000);
}

async function start(account: string, extra: Record<string, string> = {}) {
  const logs = captureLogs();
  const started = await run.start(
    { seed: 27, dialect: 'docs', shapes: 'legacy', existing: 12, pageSize: 5 },
    {
      account,
      queues: ['createRfq', 'poll', 'quotations', 'comparison'],
      logger: logs.logger,
      extra: { OVERVIEW_REFRESH_MS: '200', ...extra },
      data: true,
    },
  );
  return { ...started, logs };
}

/** Create these requisitions through the create-rfq jobs and wait until all are done. */
async function create(c: WorkerContext, reqs: ReturnType<typeof makeRequisitions>, total: number): Promise<void> {
  for (const r of reqs) await enqueueCreateRfq(c.queues, r);
  await waitFor('create jobs done', async () => (await c.queues.createRfq.getCompletedCount()) === total, 60_000, 100);
}

/** Our RFQs at the sandbox (those carrying external_ids), oldest first. */
const ours = (ctl: Awaited<ReturnType<typeof start>>['sandbox']['control']) =>
  ctl.listAll().filter((r) => r.company === COMPANY && r.lines.some((l) => l.external_id));

/** Two requisitions created through the jobs; the first RFQ's identity (its first line's id) broken at the service. */
async function twoWithBrokenIdentity(account: string, tag: string, extra: Record<string, string> = {}) {
  const started = await start(account, extra);
  await create(started.ctx, makeRequisitions(2, tag), 2);
  const [bad, good] = ours(started.sandbox.control);
  started.sandbox.control.breakField(bad!._id, 'lines.0.line_id', null);
  return { ...started, ctl: started.sandbox.control, bad: bad!, good: good! };
}

describe('one listed RFQ with one broken field', () => {
  it('walks complete, the poll sees the others, its workbook is written with a note, the field is reported once', async () => {
    const { sandbox: sb, ctx: c, logs } = await start('broken');
    const ctl = sb.control;
    const first = makeRequisitions(2, 'bf0');
    await create(c, first, 2);
    const mine = () => ours(ctl);
    const [broken, dated] = mine();
    // one field of each, in a shape that cannot be read: a quantity (it could change the award) and a due date
    ctl.breakField(broken!._id, 'lines.0.qty', 'lots');
    ctl.breakField(dated!._id, 'due_date', { $date: 'next Friday' });

    // More requisitions while a quarter of the create answers are lost: settled only by complete walks.
    const more = makeRequisitions(10, 'bf1');
    sb.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
    await create(c, more, 12);
    sb.setFaults({});
    expect(sb.stats().commitThenFail).toBeGreaterThan(0);
    expect(checkExactlyOnce(mine(), [...first, ...more])).toEqual({ duplicates: [], missing: [], rfqCount: 12 });
    const walks = await c.redis.hgetall(c.keys.key('recon', 'walks'));
    expect(Number(walks.complete)).toBeGreaterThan(0);

    // Every RFQ quoted by two suppliers, both qualified, then closed.
    for (const r of mine()) {
      const prices = r.lines.map((_, i) => String(10 + i));
      const a = ctl.submitQuotation(r._id, { sup_name: 'Acme', prices });
      const b = ctl.submitQuotation(r._id, { sup_name: 'Brill', prices: prices.map((p) => `${p}.50`) });
      ctl.decide(r._id, String(a.quotation_key), true);
      ctl.decide(r._id, String(b.quotation_key), true);
      ctl.advance(r._id, 'closed');
    }
    await pollAndSettle(c);
    await pollAndSettle(c);

    const poll = await lastPoll(c);
    expect(poll).toMatchObject({ ok: true, tracked: 12, found: 12, missing: 0, invalidCount: 0 });
    for (const r of mine()) expect((await trackedRfq(c, r._id))?.state, `RFQ ${r._id}`).toBe('closed');
    expect(poll!.unreadable).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rfqId: broken!._id, field: 'lines.0.qty', status: 'closed' }),
        expect.objectContaining({ rfqId: dated!._id, field: 'due_date', status: 'closed' }),
      ]),
    );

    // Its workbook, with a note; its award a DRAFT (no award file), the other broken one final.
    const rec = await trackedRfq(c, broken!._id);
    expect(rec?.comparison?.workbook).toBeDefined();
    const notes = (await notesOf(join(c.config.folders.comparisons, rec!.comparison!.workbook))).join('\n');
    expect(notes).toContain('RFQ field lines.0.qty could not be read');
    expect(notes).toContain('(was "lots")');
    expect(notes).toMatch(/DRAFT: part of what the service answered could not be read.*lines\.0\.qty/);
    expect(rec!.comparison!.awardCsv).toBeUndefined();
    const datedRec = await trackedRfq(c, dated!._id);
    const datedNotes = (await notesOf(join(c.config.folders.comparisons, datedRec!.comparison!.workbook))).join('\n');
    expect(datedNotes).toContain('RFQ field due_date could not be read');
    expect(datedRec!.comparison!.awardCsv).toBeDefined();
    expect(existsSync(join(c.config.folders.awards, datedRec!.comparison!.awardCsv!))).toBe(true);
    // every other RFQ: its workbook and its final award
    const awards = readdirSync(c.config.folders.awards);
    expect(awards).toHaveLength(11);

    // The field reported once over the polls (and the walks and first polls before them).
    const said = logs
      .lines()
      .filter((l) => l.event === 'rfq.unreadable-field' && l.rfqId === broken!._id && l.level === 40);
    expect(said).toHaveLength(1);
    expect(String(said[0]!.msg)).toContain('field lines.0.qty cannot be read');
    const facts = await trackingFacts(c);
    expect(facts.lastPoll?.detail).toMatch(/field\(s\) of listed RFQs cannot be read and are left out, e\.g\. RFQ \d+/);

    // The service answers the quantity readably again: a new version, its award final.
    ctl.breakField(broken!._id, 'lines.0.qty', undefined);
    await pollAndSettle(c);
    await pollAndSettle(c);
    const healed = await trackedRfq(c, broken!._id);
    expect(healed?.comparison?.version).toBe(rec!.comparison!.version + 1);
    expect(healed?.comparison?.awardCsv).toBeDefined();
    const healedNotes = (await notesOf(join(c.config.folders.comparisons, healed!.comparison!.workbook))).join('\n');
    expect(healedNotes).not.toContain('could not be read');
  });

  it('an RFQ whose identity cannot be read: its comparison job fails after its retries with the reason, in status', async () => {
    // JOB_ATTEMPTS far above the retries a record that will not change gets
    const {
      ctx: c,
      ctl,
      bad,
      good,
    } = await twoWithBrokenIdentity('identity', 'bfid', {
      JOB_ATTEMPTS: '50',
      JOB_BACKOFF_MS: '50',
    });
    for (const r of [bad, good]) {
      ctl.submitQuotation(r._id, { sup_name: 'Acme', prices: r.lines.map(() => '3') });
      ctl.advance(r._id, 'closed');
    }
    await pollAndSettle(c);
    const poll = await lastPoll(c);
    expect(poll, JSON.stringify({ error: poll?.error, skipped: poll?.skipped })).toMatchObject({
      ok: true,
      found: 2,
      invalidCount: 1,
    });
    expect((await trackedRfq(c, bad._id))?.state).toBe('closed');
    expect((await trackedRfq(c, good._id))?.comparison?.workbook).toBeDefined();

    const failed = await c.queues.comparison.getFailed();
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attemptsMade).toBe(3);
    expect(failed[0]!.failedReason).toMatch(
      new RegExp(`field lines\\.0\\.line_id of RFQ ${bad._id}.*unreadable on 3 attempts: the job is failed`),
    );
    const status = await collectStatus(c, () => trackingFacts(c));
    expect(status.failures.map((f) => [f.queue, f.reason])).toEqual([
      ['comparison', expect.stringContaining(`field lines.0.line_id of RFQ ${bad._id}`)],
    ]);
  });

  it('an RFQ whose identity cannot be read, settled by its detail call: found in the state its label names, counted invalid, the poll goes on', async () => {
    // seen in CI under load: the closed list was read before the close showed in it, so the RFQ was asked for by its
    // detail call, whose unreadable answer failed the whole poll (listRfqs: invalid response ... of RFQ 13), and then
    // (read without its state) was counted missing
    const { ctx: c, ctl, bad, good } = await twoWithBrokenIdentity('identity-detail', 'bfdt');
    // it left the open and closed lists: the poll asks for it by its detail call
    ctl.advance(bad._id, 'cancelled');
    ctl.submitQuotation(good._id, { sup_name: 'Acme', prices: good.lines.map(() => '3') });
    ctl.advance(good._id, 'closed');
    await pollAndSettle(c);
    const poll = await lastPoll(c);
    expect(poll, JSON.stringify({ error: poll?.error, choice: poll?.listing })).toMatchObject({
      ok: true,
      found: 2,
      invalidCount: 1,
      missing: 0,
    });
    expect(poll!.listing?.detailCalls).toBeGreaterThan(0);
    expect(poll!.invalid).toEqual([
      expect.objectContaining({ rfqId: bad._id, field: 'lines.0.line_id', status: 'cancelled' }),
    ]);
    expect((await trackedRfq(c, bad._id))?.state).toBe('cancelled');
    // the other RFQ's workbook is written all the same
    const rec = await trackedRfq(c, good._id);
    expect(rec?.state).toBe('closed');
    expect(existsSync(join(c.config.folders.comparisons, rec!.comparison!.workbook))).toBe(true);
  });
});

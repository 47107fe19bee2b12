/**
 * One poll: list RFQs by each status through all pages, then apply what was found to every tracked RFQ.
 *
 * - Lists are read in lifecycle order (open, closed, cancelled, completed): an RFQ that moves forward while the
 *   lists are read shows in a later list (or in two, and the later wins), never in none.
 * - Only tracked RFQs are kept in memory from the listings; the others are only counted.
 * - A poll that fails part-way changes nothing (no RFQ counted missing from a list that was never read). A page
 *   that fails (5xx past the transport's retries, time-out, a 200 with broken JSON) is asked again in place a few
 *   times first: with 20 pages a poll, a 2% rate of broken bodies would otherwise fail a third of all polls.
 * - One RFQ record that breaks the schema does not fail the poll: if its `_id` is readable it is placed in the
 *   list it was found in (its state is the list) and the bad field is logged and kept in the poll result.
 * - One poll at a time per account (a Redis lock with a renewed lease): the schedule adds one job per slot, and a
 *   poll asked for by hand while another runs is skipped (the running one does the work).
 * - The record is written first, the follow-up job enqueued second: if the process dies in between, the next
 *   poll's revision check (closed) or award retry (completed) does the same work.
 */
import { TransientHttpError } from '../errors.ts';
import { randomUUID } from 'node:crypto';
import { defineScript, loadScript } from '../redis/redis-scripts.ts';
import { isRetryablePageError } from '../errors.ts';
import type { InvalidListedRfq, ListRfqsOptions } from '../sourcing/client.ts';
import type { ListedRfq } from '../sourcing/types.ts';
import { RFQ_STATUSES } from '../sourcing/types.ts';
import { trackingStore, type TrackingContext } from './context.ts';
import { enqueueQuotations, type PollJobData } from './enqueue.ts';
import { writeAccountOverview } from './overview.ts';
import { mergeSeenState, observe, type Observation, type RfqState, type Transition } from './transitions.ts';

export interface PollResult {
  slot: string;
  /** Unix ms. */
  startedAt: number;
  finishedAt: number;
  ok: boolean;
  error?: string;
  /** Set when another poll held the lock. */
  skipped?: string;
  /** RFQs found per status list (all of the account's, tracked or not). */
  listed: Partial<Record<RfqState, number>>;
  tracked: number;
  found: number;
  missing: number;
  transitions: Array<Transition & { rfqId: number }>;
  newlyFlagged: number[];
  reappeared: number[];
  enqueued: { quotations: number; award: number; checks: number };
  /** Listed RFQs whose record breaks the schema (first MAX_RESULT_INVALID); `rfqId` when its `_id` was readable. */
  invalid: Array<{
    status: RfqState | 'all';
    rfqId?: number;
    page: number;
    index: number;
    field: string;
    reason: string;
  }>;
  /** All such RFQs, including those beyond the list above. */
  invalidCount: number;
  /** The overview workbook this poll rewrote (rows, time taken), or why it could not. */
  overview?: { rows: number; ms: number } | { error: string };
}

const LOCK_MS = 120_000;
const BATCH = 500;
const MAX_RESULT_TRANSITIONS = 200;
const MAX_RESULT_INVALID = 100;
const POLL_HISTORY = 100;
/** Each failed page asked again up to 4 times, after 0.2, 0.4, 0.8, 1.6 s (jittered ±50%), before the poll fails. */
const PAGE_RETRY: NonNullable<ListRfqsOptions['pageRetry']> = {
  attempts: 4,
  retryable: isRetryablePageError,
  backoffMs: (n) => 100 * 2 ** n * (0.5 + Math.random()),
};

const RENEW = loadScript('lockRenew-1.lua');
const RELEASE = loadScript('lockRelease-1.lua');

export async function runPoll(ctx: TrackingContext, data: PollJobData): Promise<PollResult> {
  const store = trackingStore(ctx);
  const log = ctx.logger.child({ component: 'poll', slot: data.slot });
  const startedAt = Date.now();
  const result: PollResult = {
    slot: data.slot,
    startedAt,
    finishedAt: startedAt,
    ok: false,
    listed: {},
    tracked: 0,
    found: 0,
    missing: 0,
    transitions: [],
    newlyFlagged: [],
    reappeared: [],
    enqueued: { quotations: 0, award: 0, checks: 0 },
    invalid: [],
    invalidCount: 0,
  };

  const renewLock = defineScript(ctx.redis, RENEW);
  const releaseLock = defineScript(ctx.redis, RELEASE);
  const lockToken = randomUUID();
  if ((await ctx.redis.set(store.k.pollLock, lockToken, 'PX', LOCK_MS, 'NX')) !== 'OK') {
    log.info('another poll is running; this one is skipped');
    return { ...result, ok: true, skipped: 'another poll is running', finishedAt: Date.now() };
  }
  const renew = setInterval(() => {
    renewLock([store.k.pollLock], [lockToken, String(LOCK_MS)]).catch(() => undefined);
  }, LOCK_MS / 4);
  renew.unref();

  // the whole poll's budget: a service that trickles ends this poll with an error, it does not hold the next slots
  const budget = AbortSignal.timeout(ctx.config.POLL_MAX_MS);
  try {
    const trackedIds = await store.trackedIds();
    const tracked = new Set(trackedIds);
    result.tracked = trackedIds.length;

    // `rfq` is undefined for an RFQ found by its _id whose record breaks the schema.
    const seen = new Map<number, { state: RfqState; rfq: ListedRfq | undefined }>();
    const place = (status: RfqState, id: number, rfq: ListedRfq | undefined) => {
      if (!tracked.has(id)) return;
      const prev = seen.get(id);
      const state = mergeSeenState(prev?.state, status);
      seen.set(id, state === prev?.state ? prev : { state, rfq });
    };
    // The dialect says how states are read: a proven filter form (four lists), or the unfiltered list with each
    // RFQ's state from its record's label (no form proven). Never a list whose filter is not proven.
    const dialect = ctx.dialects ? await ctx.dialects.get() : undefined;
    const form = dialect?.filter ?? 'lower';
    const onInvalidOf = (status: RfqState | 'all', count: () => void) => (bad: InvalidListedRfq) => {
      count();
      result.invalidCount++;
      const { rfqId, page, index, field, reason } = bad;
      if (result.invalid.length < MAX_RESULT_INVALID)
        result.invalid.push({ status, ...(rfqId !== undefined ? { rfqId } : {}), page, index, field, reason });
      log.warn(
        {
          rfqId,
          status,
          page,
          index,
          field,
          reason,
          tracked: rfqId !== undefined && tracked.has(rfqId),
          event: 'rfq.invalid',
        },
        `RFQ ${rfqId ?? `at ${index} of page ${page}`} in the ${status} list breaks the schema: field ${field}: ${reason}`,
      );
      if (rfqId !== undefined && status !== 'all') place(status, rfqId, undefined);
    };
    if (form === 'none') {
      const unknownLabels = new Set<string>();
      let n = 0;
      for await (const rfq of ctx.client.listRfqs(null, {
        onInvalid: onInvalidOf('all', () => n++),
        pageRetry: PAGE_RETRY,
        signal: budget,
      })) {
        n++;
        if (rfq.labelState) {
          place(rfq.labelState, rfq._id, rfq);
          result.listed[rfq.labelState] = (result.listed[rfq.labelState] ?? 0) + 1;
        } else if (tracked.has(rfq._id)) unknownLabels.add(rfq.status ?? '(none)');
      }
      for (const label of unknownLabels) {
        log.warn(
          { event: 'rfq.unknown-label', label },
          `RFQ status label "${label}" is not in the label mapping: the state of RFQs carrying it is not read`,
        );
      }
    } else {
      for (const status of RFQ_STATUSES) {
        let n = 0;
        const onInvalid = onInvalidOf(status, () => n++);
        for await (const rfq of ctx.client.listRfqs(
          { state: status, form },
          { onInvalid, pageRetry: PAGE_RETRY, signal: budget },
        )) {
          n++;
          place(status, rfq._id, rfq);
        }
        result.listed[status] = n;
      }
    }
    result.found = seen.size;

    const now = Date.now();
    const threshold = ctx.config.MISSING_POLLS_BEFORE_FLAG;
    for (let i = 0; i < trackedIds.length; i += BATCH) {
      const ids = trackedIds.slice(i, i + BATCH);
      const records = await store.getMany(ids);
      for (const [j, id] of ids.entries()) {
        const found = seen.get(id);
        let obs: Observation | undefined;
        const decide = (cur: NonNullable<(typeof records)[number]> | undefined) => {
          const base = cur ?? store.fresh(id, now);
          if (!found && cur?.missingSlot === data.slot) {
            obs = { record: cur, actions: [], changed: false };
            return undefined;
          }
          obs = observe(base, found?.state, now, threshold);
          if (!found) obs.record.missingSlot = data.slot;
          const rec = obs.record;
          // A record that broke the schema tells no version: the last one read stays.
          if (
            found?.rfq &&
            (obs.transition || rec.listedVersion !== (found.rfq.version ?? -1) || rec.dueDate !== found.rfq.due_date)
          ) {
            const { dueDate: _old, ...rest } = rec;
            const due = found.rfq.due_date;
            obs = {
              ...obs,
              record: {
                ...rest,
                listedVersion: found.rfq.version ?? -1,
                ...(due !== undefined ? { dueDate: due } : {}),
              },
              changed: true,
            };
          }
          return obs.changed || !cur ? obs.record : undefined;
        };
        const first = records[j];
        const quick = decide(first);
        if (quick !== undefined) {
          // The RFQ as listed (header and lines for the workbook), refreshed whenever the record changes.
          if (found?.rfq) await store.putListed(found.rfq);
          if (!(await store.compareAndSet(first, quick))) await store.update(id, decide);
        }
        if (!obs) continue;
        if (!found) result.missing++;
        await follow(ctx, obs, data.slot, result, log);
      }
    }

    // The overview after every poll, from the records just written. A failure to write it (disk full, a locked
    // share) is logged and leaves the poll done: the next poll writes it again.
    try {
      const written = await writeAccountOverview(ctx);
      result.overview = { rows: written.rows, ms: written.ms };
      log.info(
        { event: 'overview.written', path: written.path, rows: written.rows, ms: written.ms },
        `overview written: ${written.rows} RFQs in ${written.ms} ms`,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      result.overview = { error: message };
      log.error({ event: 'overview.failed', err }, `the overview workbook could not be written: ${message}`);
    }

    result.ok = true;
    result.finishedAt = Date.now();
    log.info(
      {
        listed: result.listed,
        tracked: result.tracked,
        found: result.found,
        missing: result.missing,
        transitions: result.transitions.length,
        flagged: result.newlyFlagged,
        invalid: result.invalidCount,
      },
      `poll done: ${result.tracked} tracked, ${result.transitions.length} transitions, ${result.missing} missing` +
        (result.invalidCount > 0 ? `, ${result.invalidCount} listed RFQs breaking the schema` : ''),
    );
    return result;
  } catch (err) {
    result.error = budget.aborted
      ? `the poll did not finish within POLL_MAX_MS (${ctx.config.POLL_MAX_MS} ms): the service answers too slowly`
      : err instanceof Error
        ? err.message
        : String(err);
    result.finishedAt = Date.now();
    if (budget.aborted) throw new TransientHttpError({ operation: 'listRfqs', reason: result.error });
    throw err;
  } finally {
    clearInterval(renew);
    await releaseLock([store.k.pollLock], [lockToken]).catch(() => undefined);
    const json = JSON.stringify({ ...result, transitions: result.transitions.slice(0, MAX_RESULT_TRANSITIONS) });
    const tx = ctx.redis.multi();
    if (result.ok) tx.set(store.k.lastOkPoll, String(result.finishedAt));
    await tx
      .set(store.k.lastPoll, json)
      .lpush(store.k.polls, json)
      .ltrim(store.k.polls, 0, POLL_HISTORY - 1)
      .exec()
      .catch(() => undefined);
  }
}

async function follow(
  ctx: TrackingContext,
  obs: Observation,
  slot: string,
  result: PollResult,
  log: TrackingContext['logger'],
): Promise<void> {
  const rfqId = obs.record.rfqId;
  const req = obs.record.requisition;
  const about = { rfqId, requisition: req?.key, sourceFile: req?.sourceFile };
  if (obs.transition) {
    result.transitions.push({ rfqId, ...obs.transition });
    log.info(
      { ...about, from: obs.transition.from, to: obs.transition.to, event: 'rfq.transition' },
      `RFQ ${rfqId}: ${obs.transition.from} -> ${obs.transition.to}`,
    );
  }
  if (obs.flag === 'flagged') {
    result.newlyFlagged.push(rfqId);
    log.warn(
      { ...about, missingPolls: obs.record.missingPolls, event: 'rfq.flagged' },
      `RFQ ${rfqId} is missing from every status list for ${obs.record.missingPolls} polls: flagged (still tracked)`,
    );
  } else if (obs.flag === 'reappeared') {
    result.reappeared.push(rfqId);
    log.info({ ...about, event: 'rfq.reappeared' }, `RFQ ${rfqId} is listed again (${obs.record.state}): flag cleared`);
  }
  for (const action of obs.actions) {
    switch (action) {
      case 'pull-quotations':
        await enqueueQuotations(ctx, { rfqId, reason: 'closed' });
        result.enqueued.quotations++;
        break;
      case 'check-revisions':
        await enqueueQuotations(ctx, { rfqId, reason: 'check' }, slot);
        result.enqueued.checks++;
        break;
      case 'pull-award':
        await enqueueQuotations(ctx, { rfqId, reason: 'award' });
        result.enqueued.award++;
        break;
      case 'report-cancelled':
        log.warn({ ...about, event: 'rfq.cancelled' }, `RFQ ${rfqId} was cancelled on the sourcing service`);
        break;
    }
  }
}

export async function lastPoll(ctx: Pick<TrackingContext, 'redis' | 'keys'>): Promise<PollResult | undefined> {
  const json = await ctx.redis.get(trackingStore(ctx).k.lastPoll);
  return json ? (JSON.parse(json) as PollResult) : undefined;
}

/** Unix ms when the last successful poll finished. */
export async function lastSuccessfulPollAt(ctx: Pick<TrackingContext, 'redis' | 'keys'>): Promise<number | undefined> {
  const v = await ctx.redis.get(trackingStore(ctx).k.lastOkPoll);
  return v ? Number(v) : undefined;
}

export async function pollHistory(
  ctx: Pick<TrackingContext, 'redis' | 'keys'>,
  count = POLL_HISTORY,
): Promise<PollResult[]> {
  const list = await ctx.redis.lrange(trackingStore(ctx).k.polls, 0, count - 1);
  return list.map((j) => JSON.parse(j) as PollResult);
}

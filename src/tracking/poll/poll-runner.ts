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
 *
 * The steps: poll-lock.ts, poll-listing.ts (the lists), poll-apply.ts (the records and follow-up jobs),
 * poll-history.ts (the results kept); each step takes the poll's state (poll-state.ts). The account's vendor directory
 * is read again with the poll once it is an hour old (src/vendors/vendor-store.ts). At its end, inside its lock, the
 * poll rewrites the overview with the writer its caller gives (the poll job: src/awarding/overview.ts).
 */
import { TransientHttpError } from '../../core/index.ts';
import { type TrackingContext } from '../context.ts';
import { type PollJobData, pollSlotKind } from '../../queues/index.ts';
import { applyToTracked } from './poll-apply.ts';
import { recordPoll } from './poll-history.ts';
import { readStatusLists } from './poll-listing.ts';
import { acquirePollLock } from './poll-lock.ts';
import { emptyPollResult, type PollResult } from './poll-result.ts';
import type { PollState } from './poll-state.ts';
import { wakePoll } from './poll-wake.ts';
import { vendorStore } from '../../vendors/index.ts';
import { trackingStore } from '../../rfqs/index.ts';

/** The overview's rewrite at the end of a poll: where it went, its rows and the time it took. */
export type PollOverview = () => Promise<{ path: string; rows: number; ms: number }>;

export async function runPoll(ctx: TrackingContext, data: PollJobData, overview?: PollOverview): Promise<PollResult> {
  const store = trackingStore(ctx);
  const log = ctx.logger.child({ component: 'poll', slot: data.slot });
  const startedAt = Date.now();
  const result = emptyPollResult(data.slot, startedAt);

  const lock = await acquirePollLock(ctx, store);
  if (!lock) {
    // the running poll may have read the lists before the webhook's change: a webhook's poll comes again after it
    if (pollSlotKind(data.slot) === 'webhook') await wakePoll(ctx, ctx.config.WEBHOOK_MIN_INTERVAL_MS);
    log.info('another poll is running; this one is skipped');
    return { ...result, ok: true, skipped: 'another poll is running', finishedAt: Date.now() };
  }

  // the whole poll's budget: a service that trickles ends this poll with an error, it does not hold the next slots
  const budget = AbortSignal.timeout(ctx.config.POLL_MAX_MS);
  try {
    const trackedIds = await store.trackedIds();
    const tracked = new Set(trackedIds);
    result.tracked = trackedIds.length;
    const s: PollState = {
      ctx,
      slot: data.slot,
      via: 'poll',
      readAt: startedAt,
      store,
      log,
      result,
      trackedIds,
      tracked,
      budget,
      seen: new Map(),
      unreadableIds: new Set(),
    };

    await readStatusLists(s);
    await applyToTracked(s);
    // at most hourly, never failing the poll: CATEGORY_CHECK and the workbooks' response rates read it
    await vendorStore(ctx).refreshIfStale(ctx.client);
    if (overview) await writeOverview(s, overview);

    result.ok = true;
    result.finishedAt = Date.now();
    logPollDone(s);
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
    await lock.release();
    await recordPoll(ctx, store, result);
  }
}

/**
 * The overview after every poll, from the records just written. A failure to write it (disk full, a locked
 * share) is logged and leaves the poll done: the next poll writes it again.
 */
async function writeOverview({ result, log }: PollState, overview: PollOverview): Promise<void> {
  try {
    const written = await overview();
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
}

function logPollDone({ result, log }: PollState): void {
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
}

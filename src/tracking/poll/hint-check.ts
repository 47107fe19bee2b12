/**
 * A webhook names the RFQ: act on it. The payload is a hint and the service the truth:
 *
 * - the tracked RFQs the payload names (hintIds: every integer value at any depth, those under an id-like field
 *   first) that can still change are checked at the service at once, the smallest reading the dialect allows
 *   (src/sourcing/targeted-read.ts: a detail call each, or the closed list's newest end), with permits of the shared
 *   limiter taken ahead of creates (a waiting comparison depends on them);
 * - what the check read is applied through the poll's own steps (poll-apply.ts applySeen, `via: 'webhook'`): the same
 *   state rules, revision handling and compare-and-set, so a transition is recorded once, whoever sees it first;
 * - at most WEBHOOK_CHECKS_PER_INTERVAL RFQs are checked per WEBHOOK_MIN_INTERVAL_MS (at least 1 s), across all
 *   workers (a Redis counter per window): a flood cannot multiply the calls;
 * - anything the check cannot settle wakes the poll exactly as before (poll-wake.ts): a payload naming no tracked
 *   RFQ, RFQs beyond the bound, a check that found no transition or failed. The full poll stays the safety net
 *   for webhooks never sent, a worker that was down, or changes between two webhooks.
 */
import { randomUUID } from 'node:crypto';
import { readsFirst } from '../../account/index.ts';
import { targetedReadingFor } from '../../sourcing/index.ts';
import { type TrackingContext } from '../context.ts';
import { countHint, trackingStore } from '../../rfqs/index.ts';
import { applySeen } from './poll-apply.ts';
import { sinkOf } from './poll-listing.ts';
import { emptyPollResult } from './poll-result.ts';
import type { PollState } from './poll-state.ts';
import { isFinal } from '../transitions.ts';
import { wakePoll, type Wake } from './poll-wake.ts';

/** Ids read from one payload, at most. */
const MAX_NAMED = 50;
/** A targeted check gives up after this long (then the poll does it). */
const CHECK_MAX_MS = 30_000;

export type HintContext = TrackingContext;

export interface HintOutcome {
  /** Tracked RFQs the payload named that can still change. */
  named: number;
  /** Of those, checked at the service now. */
  checked: number;
  /** Transitions the check found and recorded. */
  transitions: number;
  /** Those transitions. */
  found: Array<{ rfqId: number; from: string; to: string }>;
  /** The poll woken (as a webhook naming nothing wakes it), when the check did not settle the webhook. */
  poll?: Wake;
}

/**
 * The integers a JSON payload holds (numbers, and strings of digits), at any depth, those under an id-like field
 * (`_id`, `id`, `rfq_id`, `rfqId`, ...) first; each once. Undefined when the payload is not JSON.
 */
export function hintIds(json: unknown): number[] {
  const idLike: number[] = [];
  const other: number[] = [];
  const walk = (v: unknown, field: string, depth: number): void => {
    if (depth > 16 || idLike.length + other.length > 4 * MAX_NAMED) return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, field, depth + 1));
    if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
      return;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) return;
    (/(^|_)id$|Id$|^ids?$/i.test(field) ? idLike : other).push(n);
  };
  walk(json, '', 0);
  return [...new Set([...idLike, ...other])].slice(0, MAX_NAMED);
}

/** What one webhook sets off: its named RFQs checked now, and the poll woken when that does not settle it. */
export async function actOnWebhook(ctx: HintContext, ids: readonly number[]): Promise<HintOutcome> {
  const store = trackingStore(ctx);
  const out: HintOutcome = { named: 0, checked: 0, transitions: 0, found: [] };
  await countHint(ctx, { received: 1 });
  const records = await store.getMany(ids);
  const named = ids.filter((_, i) => records[i] !== undefined && !isFinal(records[i]!.state));
  out.named = named.length;
  const reading = targetedReadingFor(ctx.dialects && named.length > 0 ? await ctx.dialects.get() : undefined);
  const take = named.length > 0 && reading.name !== undefined ? await takeChecks(ctx, named.length) : 0;
  const checked = named.slice(0, take);
  out.checked = checked.length;
  if (checked.length > 0) {
    try {
      out.found = await check(ctx, checked);
      out.transitions = out.found.length;
    } catch (err) {
      ctx.logger.warn(
        { event: 'webhook.check-failed', rfqIds: checked, err },
        `webhook: RFQs ${checked.join(', ')} could not be checked (${err instanceof Error ? err.message : String(err)}): the poll will`,
      );
    }
  }
  // settled: the RFQs it named were checked and one of them changed (the service sends one webhook per change)
  if (out.transitions === 0 || checked.length < named.length) {
    out.poll = await wakePoll(ctx, ctx.config.WEBHOOK_MIN_INTERVAL_MS);
    if (out.poll.outcome === 'scheduled') await countHint(ctx, { pollsWoken: 1 });
  }
  return out;
}

/** Up to `n` checks of this interval's budget, shared by every worker; how many were granted. */
async function takeChecks(ctx: HintContext, n: number): Promise<number> {
  const bound = ctx.config.WEBHOOK_CHECKS_PER_INTERVAL;
  if (bound <= 0) return 0;
  const key = ctx.keys.key('hint', 'budget');
  const res = await ctx.redis
    .multi()
    .set(key, '0', 'PX', Math.max(1_000, ctx.config.WEBHOOK_MIN_INTERVAL_MS), 'NX')
    .incrby(key, n)
    .exec();
  const after = Number(res?.[1]?.[1] ?? Infinity);
  return Math.max(0, Math.min(n, bound - (after - n)));
}

/** The RFQs read now and applied as a poll applies what it read; the transitions found. */
async function check(ctx: HintContext, ids: number[]): Promise<HintOutcome['found']> {
  const store = trackingStore(ctx);
  const startedAt = Date.now();
  const slot = `hint~${startedAt}~${randomUUID().slice(0, 8)}`;
  const log = ctx.logger.child({ component: 'webhook-check' });
  const s: PollState = {
    ctx,
    slot,
    via: 'webhook',
    readAt: startedAt,
    store,
    log,
    result: emptyPollResult(slot, startedAt),
    trackedIds: ids,
    tracked: new Set(ids),
    budget: AbortSignal.timeout(CHECK_MAX_MS),
    seen: new Map(),
    unreadableIds: new Set(),
  };
  const reading = targetedReadingFor(ctx.dialects ? await ctx.dialects.get() : undefined);
  // a waiting comparison depends on these reads: their permits come ahead of the creates'
  const figures = await readsFirst(() =>
    reading.read(ctx.client, { active: s.tracked, sink: sinkOf(s, [], new Set()), signal: s.budget, log }, ids),
  );
  await applySeen(s);
  const transitions = s.result.transitions.length;
  await countHint(ctx, { checked: ids.length, transitions, requests: figures.requests });
  log.info(
    { event: 'webhook.checked', rfqIds: ids, requests: figures.requests, reading: reading.name, transitions },
    `webhook: checked RFQs ${ids.join(', ')} (${figures.requests} requests, ${reading.name}): ${transitions} transitions`,
  );
  return s.result.transitions.map((t) => ({ rfqId: t.rfqId, from: t.from, to: t.to }));
}

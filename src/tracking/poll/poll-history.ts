/** Where poll results are kept in Redis: the last one, the last success's time, and the recent history. */
import { type TrackingContext } from '../context.ts';
import type { PollResult } from './poll-result.ts';
import { type TrackingStore, trackingStore } from '../../rfqs/index.ts';

const MAX_RESULT_TRANSITIONS = 200;
const POLL_HISTORY = 100;

/** Keep a finished (or failed) poll's result; a Redis failure here is ignored (the poll's own outcome stands). */
export async function recordPoll(
  ctx: Pick<TrackingContext, 'redis'>,
  store: TrackingStore,
  result: PollResult,
): Promise<void> {
  const json = JSON.stringify({
    ...result,
    transitions: result.transitions.slice(0, MAX_RESULT_TRANSITIONS),
    transitionCount: result.transitions.length,
  });
  const tx = ctx.redis.multi();
  if (result.ok) tx.set(store.k.lastOkPoll, String(result.finishedAt));
  await tx
    .set(store.k.lastPoll, json)
    .lpush(store.k.polls, json)
    .ltrim(store.k.polls, 0, POLL_HISTORY - 1)
    .exec()
    .catch(() => undefined);
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

/**
 * Look early, conclude late (docs/architecture.md#reconcile-after-a-lost-answer). The post lease and the settle time
 * exist to prove a lost answer's RFQ ABSENT (the lost POST may still be in flight at the service); finding it PRESENT
 * needs no such wait. So each lost answer gets one early look: a walk that starts once its RFQ can be listed (twice
 * the measured list lag after it registered: list-settle.ts visibleFrom) and before its lists settled. That walk
 * adopts what it finds by the same rules as any walk (by external_id; by the body posted when it is complete) and
 * concludes nothing else: "absent" and a match by the body that is not "found" wait for the settled walk, as before.
 *
 * Early looks share walks: one is made only once the account has been quiet for QUIET_MS (no create of ours answered,
 * no lost answer registered) and the latest lost answer's RFQ can be listed too. A walk while creates land reads lists
 * that change under it (it breaks off before the newest pages, where the lost answers' RFQs are, and cannot be
 * complete), and lost answers still to come would each want a walk of their own. The wait never delays a lost answer
 * past its settle time: from then on the coordinator walks as before. A requisition found by no early look waits for
 * the settled walk (recon:looked).
 *
 * Redis keys (reconcile-coordinator.ts names them):
 *   recon:looked    hash requisition id -> start of the walk that made its early look (cleared when it is settled)
 *   recon:lost-at   Redis ms when the latest lost answer registered
 *   recon:created   our RFQs posted lately, by the time recorded (record-5.lua): the latest create answered
 */
import type { Redis } from 'ioredis';
import type { Dialect } from '../sourcing/index.ts';
import { settledFrom, visibleFrom } from './list-settle.ts';

/** An early look waits until no create of ours was answered, and no lost answer registered, for this long. */
export const QUIET_MS = 2_000;

export interface LookKeys {
  looked: string;
  lostAt: string;
  created: string;
}

/**
 * Ms until the early look for this lost answer may walk (0: now); undefined when it had its look (or can have none
 * before its lists settle: `settleAt`).
 */
export async function earlyLookIn(
  redis: Redis,
  k: LookKeys,
  p: { id: string; since: number },
  d: Pick<Dialect, 'listLagMs'>,
  settleAt: number,
  now: number,
): Promise<number | undefined> {
  const from = visibleFrom(p, d);
  if (from >= settleAt) return undefined;
  const [looked, lostAt, latest] = await Promise.all([
    redis.hexists(k.looked, p.id),
    redis.get(k.lostAt),
    redis.zrange(k.created, -1, -1, 'WITHSCORES'),
  ]);
  if (looked === 1) return undefined;
  // quiet, and the latest lost answer visible too: one walk for all of them
  const lost = Number(lostAt ?? 0);
  const at = Math.max(from, visibleFrom({ since: lost }, d), lost + QUIET_MS, Number(latest[1] ?? 0) + QUIET_MS);
  return Math.max(0, at - now);
}

/** A lost answer registered now: the account is not quiet. */
export async function noteLost(redis: Redis, k: LookKeys, since: number): Promise<void> {
  await redis.set(k.lostAt, String(since));
}

/** Whether the walk that started at `started` is this pending requisition's early look. */
export function looksEarly(
  p: { since: number; postUntil?: number },
  d: Pick<Dialect, 'listLagMs'>,
  settle: number,
  started: number,
): boolean {
  return p.since < started && started >= visibleFrom(p, d) && started < settledFrom(p, settle);
}

/** These requisitions had their early look in the walk that started at `started`. */
export async function markLooked(
  redis: Redis,
  k: LookKeys,
  pendings: ReadonlyArray<{ id: string }>,
  started: number,
): Promise<void> {
  if (pendings.length > 0) await redis.hset(k.looked, Object.fromEntries(pendings.map((p) => [p.id, String(started)])));
}

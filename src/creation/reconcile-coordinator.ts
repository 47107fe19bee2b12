/**
 * One walk for many lost answers. A requisition whose POST may have created an RFQ (`creating`) registers here as
 * pending (after its last POST ended: the claim waited out the post lease); one walk of the account
 * (reconcile-walker.ts) at a time, across all workers, serves every pending requisition. An RFQ carrying a pending
 * requisition's external_ids settles it at once; everything else is decided only by a COMPLETE walk that began after
 * the requisition registered AND after its lists settled (list-settle.ts: SOURCING_LIST_SETTLE_MS or twice the
 * measured list lag after the lease of its last POST), by the rules of reconcile-decision.ts, except that an early
 * look (early-look.ts: one walk once its RFQ can be listed and the account is quiet) adopts an RFQ it finds by the
 * same rules. A requisition that RECONCILE_MAX_WALKS walks in a row could not decide is parked with the reason, like
 * an ambiguous match: nothing waits silently for ever.
 *
 * Redis keys (all under the account's namespace):
 *   recon:pending     hash requisition id -> JSON PendingEntry
 *   recon:result      hash requisition id -> JSON ReconcileResult (written by whichever worker walked)
 *   recon:lock        the walker's token (PX, renewed while it walks): one walk in flight per account
 *   recon:gate        JSON {reason, until} (PX) after walks broken by churn: new POSTs of the account wait for it;
 *                     recon:gate-rest (PX) keeps it from closing again at once, so creation always moves on
 *   recon:churn       walks in a row broken by a changing list
 *   recon:unreadable  walks in a row that could not decide because of records that cannot be read
 *                     (reconcile-unreadable.ts: the requisitions they hold are parked after 3)
 *   recon:incomplete  hash requisition id -> incomplete walks that could have decided it
 *   recon:parked      hash requisition id -> JSON PendingEntry & {reason, rfqIds, bodies} (for `resolve`, `status`)
 *   recon:created     zset rfqId -> ms: RFQs posted in the last 10 minutes (record-5.lua; the walker's check that the
 *                     lists show them)
 *   recon:looked, recon:lost-at   the early looks (early-look.ts)
 * Counters for the bench and `status`: recon:walks (hash: started, complete, pages).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ReconcileUnstableError } from '../core/index.ts';
import { earlyLookIn, noteLost } from './early-look.ts';
import { listSettleMs, settledFrom } from './list-settle.ts';
import type { PendingEntry, ReconcileResult } from './reconcile-decision.ts';
import { RECONCILE_LIMITS, type ReconcileLimits } from './reconcile-walk.ts';
import { redisNow, walkOnce, type CoordinatorDeps, type ReconKeys, type WalkerState } from './reconcile-walker.ts';

import {
  type RedisKeys,
  LOCK_RELEASE,
  LOCK_RENEW,
  defineScript,
  type ScriptCaller,
  type ScriptFlag,
} from '../redis/index.ts';

/**
 * The walk lock lives this long unless renewed (every third of it while the walk runs): a walker that dies frees it
 * soon. Two walks at once are harmless (each result names the start of its walk), only wasteful.
 */
const LOCK_MS = 5_000;
/** A requisition waiting for its lists to settle looks again at least this often (the lag may get measured). */
const SETTLE_RECHECK_MS = 2_000;
/** A settled requisition waits at most this long for others about to settle, so one walk serves them all. */
const BATCH_MS = 1_500;

export type ParkedEntry = PendingEntry & { reason: string; rfqIds: number[]; bodies?: Record<number, string> };

export interface ReconcileCoordinator {
  /**
   * The result for this pending requisition from a walk that began after it registered (and, unless found by
   * external_id, after its lists settled); else ReconcileUnstableError (the job waits).
   */
  reconcile(entry: Omit<PendingEntry, 'since'>): Promise<ReconcileResult>;
  /** Forget the entry and its result once acted on. */
  settle(id: string): Promise<void>;
  /** True while a walk needs the list quiet: a POST about to go out waits. */
  gateClosed(): Promise<boolean>;
  /** Why new POSTs wait, and until when (Redis ms); undefined when they do not. */
  gate(): Promise<{ reason: string; until: number } | undefined>;
  /** Parked requisitions' entries (for `resolve`). */
  parked(id: string): Promise<ParkedEntry | undefined>;
  park(entry: PendingEntry, result: Extract<ReconcileResult, { outcome: 'ambiguous' }>): Promise<void>;
  unpark(id: string): Promise<void>;
  listParked(): Promise<ParkedEntry[]>;
  stats(): Promise<{ started: number; complete: number; pages: number; pending: number }>;
}

export function reconKeys(keys: RedisKeys): ReconKeys {
  const k = (name: string) => keys.key('recon', name);
  return {
    pending: k('pending'),
    result: k('result'),
    lock: k('lock'),
    gate: k('gate'),
    gateRest: k('gate-rest'),
    churn: k('churn'),
    walks: k('walks'),
    parked: k('parked'),
    incomplete: k('incomplete'),
    created: k('created'),
    unreadable: k('unreadable'),
    looked: k('looked'),
    lostAt: k('lost-at'),
  };
}

export function createReconcileCoordinator(d: CoordinatorDeps): ReconcileCoordinator {
  const k = reconKeys(d.keys);
  const s: WalkerState = { d, k, limits: d.reconcileLimits ?? RECONCILE_LIMITS };
  const renewLock = defineScript(d.redis, LOCK_RENEW);
  const releaseLock = defineScript(d.redis, LOCK_RELEASE);
  const gate = async () => gateOf(await d.redis.get(k.gate));
  return {
    reconcile: async (entry) => reconcile(s, entry, { renewLock, releaseLock }),
    async settle(id) {
      await d.redis.multi().hdel(k.pending, id).hdel(k.result, id).hdel(k.incomplete, id).hdel(k.looked, id).exec();
    },
    async gateClosed() {
      return (await d.redis.exists(k.gate)) === 1;
    },
    gate,
    async parked(id) {
      const raw = await d.redis.hget(k.parked, id);
      return raw ? (JSON.parse(raw) as ParkedEntry) : undefined;
    },
    async park(entry, result) {
      const parked: ParkedEntry = {
        ...entry,
        reason: result.reason,
        rfqIds: result.rfqIds,
        ...(result.bodies ? { bodies: result.bodies } : {}),
      };
      await d.redis
        .multi()
        .hset(k.parked, entry.id, JSON.stringify(parked))
        .hdel(k.pending, entry.id)
        .hdel(k.result, entry.id)
        .hdel(k.incomplete, entry.id)
        .hdel(k.looked, entry.id)
        .exec();
    },
    async unpark(id) {
      await d.redis.hdel(k.parked, id);
    },
    listParked: async () => parkedOf(await d.redis.hgetall(k.parked)),
    async stats() {
      const [h, pending] = await Promise.all([d.redis.hgetall(k.walks), d.redis.hlen(k.pending)]);
      return {
        started: Number(h.started ?? 0),
        complete: Number(h.complete ?? 0),
        pages: Number(h.pages ?? 0),
        pending,
      };
    },
  };
}

const jitter = (limits: ReconcileLimits) => Math.round(limits.backoffMs * 5 + Math.random() * limits.backoffMs * 10);

/**
 * Registers the entry, then answers from a walk that began after it registered (and after its lists settled, or
 * was its early look), walking itself if it gets the lock.
 */
async function reconcile(
  s: WalkerState,
  entry: Omit<PendingEntry, 'since'>,
  lock: { renewLock: ScriptCaller<ScriptFlag>; releaseLock: ScriptCaller<ScriptFlag> },
): Promise<ReconcileResult> {
  const { d, k } = s;
  const held = await register(s, entry);
  const ready = async () => {
    const raw = await d.redis.hget(k.result, entry.id);
    const r = raw ? (JSON.parse(raw) as ReconcileResult) : undefined;
    return r && r.walkStartedAt > held.since ? r : undefined;
  };
  const have = await ready();
  if (have) return have;
  const dialect = await d.dialect();
  const settle = listSettleMs(dialect, d.settleFloorMs, d.settleUnmeasuredMs);
  const now = await redisNow(d.redis);
  const settleAt = settledFrom(held, settle);
  const wait = settleAt - now;
  if (wait > 0) {
    // before its lists settle, only its early look may walk for it (early-look.ts)
    const look = await earlyLookIn(d.redis, k, held, dialect, settleAt, now);
    if (look === undefined || look >= wait)
      throw new ReconcileUnstableError(
        `waiting ${wait} ms more for the lists to settle (a lost answer's RFQ may not be listed yet)`,
        Math.min(wait, SETTLE_RECHECK_MS) + jitter(s.limits),
      );
    if (look > 0)
      throw new ReconcileUnstableError(
        `looking for its RFQ in ${look} ms (once it can be listed and the account's creates are quiet)`,
        Math.min(look, SETTLE_RECHECK_MS) + jitter(s.limits),
      );
  } else {
    // one walk for many: if other lost answers settle in a moment, walk for them too (waiting at most BATCH_MS)
    const soon = await settlingSoon(s, settle, now);
    if (soon > 0 && -wait < BATCH_MS)
      throw new ReconcileUnstableError(`waiting ${soon} ms to walk for more lost answers at once`, soon);
  }
  const token = randomUUID();
  if ((await d.redis.set(k.lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK')
    throw new ReconcileUnstableError('waiting for the walk another worker is making', jitter(s.limits));
  const renew = setInterval(() => void lock.renewLock([k.lock], [token, LOCK_MS]).catch(() => undefined), LOCK_MS / 3);
  let why: string | undefined;
  try {
    why = await walkOnce(s, token);
  } finally {
    clearInterval(renew);
    await lock.releaseLock([k.lock], [token]);
  }
  const after = await ready();
  if (after) return after;
  throw new ReconcileUnstableError(
    why ? `the walk could not prove the lists complete: ${why}` : 'the walk decided nothing for it yet',
    jitter(s.limits),
  );
}

/** How long until the last pending requisition that settles within BATCH_MS settles (0: none does). */
async function settlingSoon(s: WalkerState, settle: number, now: number): Promise<number> {
  const pendings = Object.values(await s.d.redis.hgetall(s.k.pending)).map((v) => JSON.parse(v) as PendingEntry);
  let soon = 0;
  for (const p of pendings) {
    const left = settledFrom(p, settle) - now;
    if (left > 0 && left <= BATCH_MS) soon = Math.max(soon, left);
  }
  return soon;
}

/** Puts the entry in recon:pending and answers it as held (its `since` is the first registration's). */
async function register(s: WalkerState, entry: Omit<PendingEntry, 'since'>): Promise<PendingEntry> {
  const { d, k } = s;
  const fresh: PendingEntry = { ...entry, since: await redisNow(d.redis) };
  if (await d.redis.hsetnx(k.pending, entry.id, JSON.stringify(fresh))) {
    await noteLost(d.redis, k, fresh.since);
    return fresh;
  }
  const held = JSON.parse((await d.redis.hget(k.pending, entry.id)) ?? 'null') as PendingEntry | null;
  if (!held) return fresh;
  // the first registration of this lost answer holds `since`; what was posted since is added
  const now: PendingEntry = { ...entry, since: held.since };
  if (JSON.stringify(now) !== JSON.stringify(held)) await d.redis.hset(k.pending, entry.id, JSON.stringify(now));
  return now;
}

const gateOf = (raw: string | null) => (raw ? (JSON.parse(raw) as { reason: string; until: number }) : undefined);
const parkedOf = (h: Record<string, string>) => Object.values(h).map((v) => JSON.parse(v) as ParkedEntry);

/** What `status` shows of the reconcile, read without a coordinator (it needs no sourcing service). */
export async function reconcileStatus(
  redis: Redis,
  keys: RedisKeys,
): Promise<{ parked: ParkedEntry[]; pending: number; gate: { reason: string; until: number } | undefined }> {
  const k = reconKeys(keys);
  const [parked, pending, gate] = await Promise.all([
    redis.hgetall(k.parked),
    redis.hlen(k.pending),
    redis.get(k.gate),
  ]);
  return { parked: parkedOf(parked), pending, gate: gateOf(gate) };
}

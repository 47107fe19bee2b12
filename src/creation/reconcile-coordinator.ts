/**
 * One walk for many lost answers. A requisition whose POST may have created an RFQ (`creating`) registers here as
 * pending; one walk of the account (reconcile-walk.ts) at a time, across all workers, serves every pending
 * requisition: an RFQ carrying a pending requisition's external_ids settles it at once (even in a walk that does not
 * complete); everything else is decided only from a COMPLETE walk that began after the requisition registered
 * (registration happens after its last POST ended: the claim waited out the post lease):
 *   - lists echo external_id (or the RFQ carries them): the RFQ with our external_ids is ours; none -> absent;
 *   - no echo: an RFQ that carries no external_id, is not already recorded for a requisition, and whose
 *     fingerprint (fingerprint.ts) is one this requisition posted, is a candidate. One candidate, matching no other
 *     pending requisition and made no earlier than our first POST (less CLOCK_SKEW_MS): adopted. None: absent.
 *     Anything else (two candidates, one RFQ for two requisitions, a candidate older than our first POST - made by
 *     hand?) is AMBIGUOUS: nothing adopted, nothing posted; the requisition is parked for `rfq-sync resolve`.
 * A listed record that cannot be read decides nothing either way, then parks what it holds (reconcile-unreadable.ts).
 *
 * Redis keys (all under the account's namespace):
 *   recon:pending  hash requisition id -> JSON PendingEntry
 *   recon:result   hash requisition id -> JSON ReconcileResult (written by whichever worker walked)
 *   recon:lock     the walker's token (PX, renewed while it walks): one walk in flight per account
 *   recon:gate     set after walks broken by churn (PX): new POSTs of the account wait for it
 *   recon:churn    walks in a row broken by a changing list
 *   recon:unreadable walks in a row that could not decide because of records that cannot be read
 * Counters for the bench and `status`: recon:walks (hash: started, complete, pages).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { Requisition } from '../requisition.ts';
import type { Dialect } from '../sourcing/dialect.ts';
import type { SourcingPort } from '../sourcing/port.ts';
import type { ListedRfq } from '../sourcing/types.ts';
import { listedFingerprint } from './fingerprint.ts';
import { ReconcileUnstableError } from '../errors.ts';
import { RECONCILE_LIMITS, type ReconcileLimits } from './reconcile-walk.ts';
import { walkAccount, type WalkOutcome } from './reconcile-walk.ts';
import { couldBeOurs, heldBecause, holdForUnreadable, type UnreadableDeps } from './reconcile-unreadable.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';
import { defineScript, loadScript, type ScriptCaller } from '../redis/redis-scripts.ts';

/** An RFQ made this long before our first POST (service clock against Redis's) cannot be ours. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/**
 * The walk lock lives this long unless renewed (every third of it while the walk runs): a walker that dies frees it
 * soon. Two walks at once are harmless (each result names the start of its walk), only wasteful.
 */
const LOCK_MS = 5_000;
/** The gate holds new POSTs at most this long (a walker that dies leaves it behind). */
const GATE_MS = 10_000;
/** Walks broken by churn in a row before new POSTs are held for a quiet walk. */
const CHURN_BEFORE_GATE = 2;

export interface PendingEntry {
  id: string;
  externalIds: string[];
  /** Fingerprints of every body posted for it. */
  fingerprints: string[];
  /** Redis ms when it registered (after its last POST ended). */
  since: number;
  firstPostAt?: number;
  /** Kept for `resolve --post` once parked. */
  requisition: Requisition;
}

export type ReconcileResult =
  | { walkStartedAt: number; outcome: 'found'; rfq: ListedRfq; how: 'external_id' | 'fingerprint' }
  | { walkStartedAt: number; outcome: 'absent' }
  | { walkStartedAt: number; outcome: 'ambiguous'; reason: string; rfqIds: number[] };

export interface ReconcileCoordinator {
  /** The result for this pending requisition from a walk that began after it registered; else ReconcileUnstableError (the job waits). */
  reconcile(entry: Omit<PendingEntry, 'since'>): Promise<ReconcileResult>;
  /** Forget the entry and its result once acted on. */
  settle(id: string): Promise<void>;
  /** True while a walk needs the list quiet: a POST about to go out waits. */
  gateClosed(): Promise<boolean>;
  /** Parked requisitions' entries (for `resolve`). */
  parked(id: string): Promise<(PendingEntry & { reason: string; rfqIds: number[] }) | undefined>;
  park(entry: PendingEntry, reason: string, rfqIds: number[]): Promise<void>;
  unpark(id: string): Promise<void>;
  listParked(): Promise<Array<PendingEntry & { reason: string; rfqIds: number[] }>>;
  stats(): Promise<{ started: number; complete: number; pages: number }>;
}

export interface CoordinatorDeps {
  redis: Redis;
  keys: RedisKeys;
  listingClient: Pick<SourcingPort, 'listRfqPages'>;
  dialect(): Promise<Pick<Dialect, 'unfiltered' | 'filter' | 'echo'>>;
  /** What workers learn on the way: whether our own RFQs show their external_ids in lists. */
  learnEcho?(echo: 'yes' | 'no', evidence: string): Promise<void>;
  logger: Logger;
  reconcileLimits?: ReconcileLimits;
}

const RENEW = loadScript('lockRenew-1.lua');
const RELEASE = loadScript('lockRelease-1.lua');

/** The account's recon:* keys (see the top of this file). */
interface ReconKeys {
  pending: string;
  result: string;
  lock: string;
  gate: string;
  churn: string;
  walks: string;
  parked: string;
  unreadable: string;
}

/** What the coordinator's steps below share: its deps, keys, lock scripts and search bounds. */
interface CoordinatorState {
  d: CoordinatorDeps;
  k: ReconKeys;
  renewLock: ScriptCaller;
  releaseLock: ScriptCaller;
  limits: ReconcileLimits;
}

export function createReconcileCoordinator(d: CoordinatorDeps): ReconcileCoordinator {
  const k: ReconKeys = {
    pending: d.keys.key('recon', 'pending'),
    result: d.keys.key('recon', 'result'),
    lock: d.keys.key('recon', 'lock'),
    gate: d.keys.key('recon', 'gate'),
    churn: d.keys.key('recon', 'churn'),
    walks: d.keys.key('recon', 'walks'),
    parked: d.keys.key('recon', 'parked'),
    unreadable: d.keys.key('recon', 'unreadable'),
  };
  const s: CoordinatorState = {
    d,
    k,
    renewLock: defineScript(d.redis, RENEW),
    releaseLock: defineScript(d.redis, RELEASE),
    limits: d.reconcileLimits ?? RECONCILE_LIMITS,
  };
  const coordinator: ReconcileCoordinator = {
    reconcile: async (entry) => reconcile(s, entry),
    async settle(id) {
      await d.redis.multi().hdel(k.pending, id).hdel(k.result, id).exec();
    },
    async gateClosed() {
      return (await d.redis.exists(k.gate)) === 1;
    },
    async parked(id) {
      const raw = await d.redis.hget(k.parked, id);
      return raw ? JSON.parse(raw) : undefined;
    },
    async park(entry, reason, rfqIds) {
      await d.redis
        .multi()
        .hset(k.parked, entry.id, JSON.stringify({ ...entry, reason, rfqIds }))
        .hdel(k.pending, entry.id)
        .hdel(k.result, entry.id)
        .exec();
    },
    async unpark(id) {
      await d.redis.hdel(k.parked, id);
    },
    async listParked() {
      return Object.values(await d.redis.hgetall(k.parked)).map((v) => JSON.parse(v));
    },
    async stats() {
      const h = await d.redis.hgetall(k.walks);
      return { started: Number(h.started ?? 0), complete: Number(h.complete ?? 0), pages: Number(h.pages ?? 0) };
    },
  };
  return coordinator;
}

async function redisNow(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

const waitMs = (limits: ReconcileLimits) => Math.round(limits.backoffMs * 5 + Math.random() * limits.backoffMs * 10);

/** Registers the entry, then answers from a walk that began after it registered, walking itself if it gets the lock. */
async function reconcile(s: CoordinatorState, entry: Omit<PendingEntry, 'since'>): Promise<ReconcileResult> {
  const { d, k } = s;
  const since = await register(s, entry);
  const ready = async () => {
    const raw = await d.redis.hget(k.result, entry.id);
    const r = raw ? (JSON.parse(raw) as ReconcileResult) : undefined;
    return r && r.walkStartedAt > since ? r : undefined;
  };
  const have = await ready();
  if (have) return have;
  const token = randomUUID();
  if ((await d.redis.set(k.lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK')
    throw new ReconcileUnstableError('waiting for the walk another worker is making', waitMs(s.limits));
  const renew = setInterval(() => void s.renewLock([k.lock], [token, LOCK_MS]).catch(() => undefined), LOCK_MS / 3);
  try {
    await walk(s, token);
  } finally {
    clearInterval(renew);
    await s.releaseLock([k.lock], [token]);
  }
  const after = await ready();
  if (after) return after;
  throw new ReconcileUnstableError('the walk could not prove the lists complete', waitMs(s.limits));
}

/** Puts the entry in recon:pending and answers its `since`. */
async function register(s: CoordinatorState, entry: Omit<PendingEntry, 'since'>): Promise<number> {
  const { d, k } = s;
  const now = await redisNow(d.redis);
  // the first registration of this lost answer holds: a later attempt must not push `since` forward
  const fresh: PendingEntry = { ...entry, since: now };
  if (!(await d.redis.hsetnx(k.pending, entry.id, JSON.stringify(fresh)))) {
    const held = JSON.parse((await d.redis.hget(k.pending, entry.id)) ?? 'null') as PendingEntry | null;
    if (
      held &&
      (held.fingerprints.join() !== entry.fingerprints.join() || held.externalIds.join() !== entry.externalIds.join())
    ) {
      await d.redis.hset(k.pending, entry.id, JSON.stringify({ ...entry, since: held.since }));
    }
  }
  return JSON.parse((await d.redis.hget(k.pending, entry.id)) ?? JSON.stringify(fresh)).since as number;
}

/** What one walk of the account read, for the steps after it. */
interface AccountRead {
  outcome: WalkOutcome;
  pages: number;
  /** Pending requisitions settled by an RFQ carrying their external_ids. */
  settledNow: Set<string>;
  /** RFQs listed without any external_id (the fingerprint candidates). */
  noExt: ListedRfq[];
  withExt: Map<number, ListedRfq>;
}

/** One walk, serving every pending requisition (holding the lock `token`). */
async function walk(s: CoordinatorState, token: string): Promise<void> {
  const { d, k } = s;
  const started = await redisNow(d.redis);
  const dialect = await d.dialect();
  const pendings = Object.values(await d.redis.hgetall(k.pending)).map((v) => JSON.parse(v) as PendingEntry);
  await d.redis.hincrby(k.walks, 'started', 1);
  const read = await readAccount(s, dialect, started, pendings);
  await d.redis.hincrby(k.walks, 'pages', read.pages);
  await learnEcho(s, read.withExt, read.noExt);
  if (!read.outcome.complete) {
    const churned = read.outcome.churn ? await d.redis.incr(k.churn) : 0;
    if (churned >= CHURN_BEFORE_GATE) await d.redis.set(k.gate, token, 'PX', GATE_MS);
    if (read.outcome.broken && !read.outcome.churn) {
      const held = pendings.filter((p) => p.since < started && !read.settledNow.has(p.id)).map((p) => p.id);
      await holdForUnreadable(unreadableDeps(s), started, held, [], read.outcome.reason ?? 'records break the schema');
    }
    d.logger.debug(
      {
        event: 'reconcile.walk-incomplete',
        reason: read.outcome.reason,
        pending: pendings.length,
        settled: read.settledNow.size,
      },
      `walk of the RFQ lists incomplete: ${read.outcome.reason}`,
    );
    return;
  }
  await d.redis.hincrby(k.walks, 'complete', 1);
  await d.redis.del(k.churn, k.gate);
  const decided = await decideByFingerprint(s, dialect.echo, started, pendings, read);
  if (decided.held.length === 0) await d.redis.del(k.unreadable);
  else {
    const { rfqIds, why } = heldBecause(decided.held);
    const ids = decided.held.map((h) => h.p.id);
    await holdForUnreadable(unreadableDeps(s), started, ids, rfqIds, why);
  }
  d.logger.debug(
    {
      event: 'reconcile.walk-complete',
      read: read.outcome.read,
      pending: pendings.length,
      decided: decided.count + read.settledNow.size,
      pages: read.pages,
    },
    'walk of the RFQ lists complete',
  );
}

/** Reads the account's lists; an RFQ with a pending requisition's external_ids settles it at once. */
async function readAccount(
  s: CoordinatorState,
  dialect: Pick<Dialect, 'unfiltered' | 'filter' | 'echo'>,
  started: number,
  pendings: PendingEntry[],
): Promise<AccountRead> {
  const { d, k } = s;
  const byExt = new Map<string, PendingEntry>();
  for (const p of pendings) for (const e of p.externalIds) byExt.set(e, p);
  const settledNow = new Set<string>();
  const noExt: ListedRfq[] = [];
  const withExt = new Map<number, ListedRfq>();
  let pages = 0;
  const outcome = await walkAccount(
    d.listingClient,
    dialect,
    s.limits,
    async (rfq) => {
      const ext = rfq.lines.map((l) => l.external_id).filter((e): e is string => e !== undefined && e !== '');
      if (ext.length === 0) return void noExt.push(rfq);
      withExt.set(rfq._id, rfq);
      for (const e of ext) {
        const p = byExt.get(e);
        if (!p || settledNow.has(p.id)) continue;
        // an RFQ carrying the external_ids the claim table gave this requisition: it is its RFQ
        settledNow.add(p.id);
        const res: ReconcileResult = { walkStartedAt: started, outcome: 'found', rfq, how: 'external_id' };
        await d.redis.hset(k.result, p.id, JSON.stringify(res));
      }
    },
    async () => {
      pages++;
    },
  );
  return { outcome, pages, settledNow, noExt, withExt };
}

/**
 * After a complete walk: every pending requisition registered before it began and not settled by external_id is
 * decided by the fingerprints of what it posted. Answers how many were decided, and those held by RFQs made since
 * their first POST whose fingerprint cannot be read (no result for them from this walk).
 */
async function decideByFingerprint(
  s: CoordinatorState,
  echo: Dialect['echo'],
  started: number,
  pendings: PendingEntry[],
  read: AccountRead,
): Promise<{ count: number; held: Array<{ p: PendingEntry; rfqs: ListedRfq[] }> }> {
  const { d, k } = s;
  const tracked = new Set((await d.redis.smembers(d.keys.trackedRfqs)).map(Number));
  const eligible = pendings.filter((p) => p.since < started && !read.settledNow.has(p.id));
  // fingerprint -> candidate RFQs (no external_id, not recorded for any requisition)
  const byFp = new Map<string, ListedRfq[]>();
  const unknown: ListedRfq[] = [];
  if (echo !== 'yes') {
    for (const r of read.noExt) {
      if (tracked.has(r._id)) continue;
      const fp = listedFingerprint(r);
      if (fp !== undefined) byFp.set(fp, [...(byFp.get(fp) ?? []), r]);
      else unknown.push(r);
    }
  }
  const candidatesOf = (p: PendingEntry) => {
    const m = new Map<number, ListedRfq>();
    for (const fp of p.fingerprints) for (const r of byFp.get(fp) ?? []) m.set(r._id, r);
    return [...m.values()];
  };
  const claimants = new Map<number, string[]>();
  for (const p of pendings)
    for (const r of candidatesOf(p)) claimants.set(r._id, [...(claimants.get(r._id) ?? []), p.id]);
  const held: Array<{ p: PendingEntry; rfqs: ListedRfq[] }> = [];
  for (const p of eligible) {
    const unreadable = couldBeOurs(unknown, p.firstPostAt, CLOCK_SKEW_MS);
    if (unreadable.length > 0) {
      held.push({ p, rfqs: unreadable });
      continue;
    }
    const res = fingerprintVerdict(started, p, candidatesOf(p), claimants);
    await d.redis.hset(k.result, p.id, JSON.stringify(res));
  }
  return { count: eligible.length - held.length, held };
}

function unreadableDeps({ d, k }: CoordinatorState): UnreadableDeps {
  return { redis: d.redis, logger: d.logger, counterKey: k.unreadable, resultKey: k.result };
}

/** One pending requisition's result from its candidates (`claimants`: RFQ id -> the pending requisitions it matches). */
function fingerprintVerdict(
  started: number,
  p: PendingEntry,
  c: ListedRfq[],
  claimants: Map<number, string[]>,
): ReconcileResult {
  const only = c[0];
  if (c.length === 0) return { walkStartedAt: started, outcome: 'absent' };
  if (c.length > 1)
    return ambiguous(started, `${c.length} RFQs match what was posted: ${c.map((r) => r._id).join(', ')}`, c);
  if (only && (claimants.get(only._id)?.length ?? 0) > 1) {
    return ambiguous(
      started,
      `RFQ ${only._id} matches ${claimants.get(only._id)!.length} requisitions: ${claimants.get(only._id)!.join(', ')}`,
      c,
    );
  }
  if (
    only &&
    p.firstPostAt !== undefined &&
    only.rfq_date !== undefined &&
    only.rfq_date < p.firstPostAt - CLOCK_SKEW_MS
  ) {
    return ambiguous(
      started,
      `RFQ ${only._id} matches what was posted but was made before our first POST (by hand?)`,
      c,
    );
  }
  return { walkStartedAt: started, outcome: 'found', rfq: only!, how: 'fingerprint' };
}

/** What workers learn on the way: whether our own RFQs (the last 50 tracked) show their external_ids in lists. */
async function learnEcho(s: CoordinatorState, withExt: Map<number, ListedRfq>, noExt: ListedRfq[]): Promise<void> {
  const { d } = s;
  if (!d.learnEcho) return;
  const tracked = await d.redis.smembers(d.keys.trackedRfqs);
  for (const id of tracked.slice(-50).map(Number)) {
    if (withExt.has(id))
      return d.learnEcho('yes', `external_id echo: yes (our RFQ ${id} lists its lines' external_ids)`);
  }
  const ours = noExt.find((r) => tracked.includes(String(r._id)));
  if (ours)
    await d.learnEcho('no', `external_id echo: no (our RFQ ${ours._id} is listed without its lines' external_ids)`);
}

function ambiguous(walkStartedAt: number, reason: string, c: ListedRfq[]): ReconcileResult {
  return { walkStartedAt, outcome: 'ambiguous', reason, rfqIds: c.map((r) => r._id) };
}

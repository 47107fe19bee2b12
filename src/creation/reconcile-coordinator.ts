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
 *
 * Redis keys (all under the account's namespace):
 *   recon:pending  hash requisition id -> JSON PendingEntry
 *   recon:result   hash requisition id -> JSON ReconcileResult (written by whichever worker walked)
 *   recon:lock     the walker's token (PX, renewed while it walks): one walk in flight per account
 *   recon:gate     set after walks broken by churn (PX): new POSTs of the account wait for it
 *   recon:churn    walks in a row broken by a changing list
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
import { walkAccount } from './reconcile-walk.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';
import { defineScript, loadScript } from '../redis/redis-scripts.ts';

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

export function createReconcileCoordinator(d: CoordinatorDeps): ReconcileCoordinator {
  const k = {
    pending: d.keys.key('recon', 'pending'),
    result: d.keys.key('recon', 'result'),
    lock: d.keys.key('recon', 'lock'),
    gate: d.keys.key('recon', 'gate'),
    churn: d.keys.key('recon', 'churn'),
    walks: d.keys.key('recon', 'walks'),
    parked: d.keys.key('recon', 'parked'),
  };
  const renewS = defineScript(d.redis, RENEW);
  const releaseS = defineScript(d.redis, RELEASE);
  const limits = d.reconcileLimits ?? RECONCILE_LIMITS;
  const redisNow = async () => {
    const [s, us] = await d.redis.time();
    return Number(s) * 1000 + Math.floor(Number(us) / 1000);
  };
  const waitMs = () => Math.round(limits.backoffMs * 5 + Math.random() * limits.backoffMs * 10);

  async function walk(token: string): Promise<void> {
    const started = await redisNow();
    const dialect = await d.dialect();
    const pendings = Object.values(await d.redis.hgetall(k.pending)).map((v) => JSON.parse(v) as PendingEntry);
    const byExt = new Map<string, PendingEntry>();
    for (const p of pendings) for (const e of p.externalIds) byExt.set(e, p);
    const settledNow = new Set<string>();
    const noExt: ListedRfq[] = [];
    const withExt = new Map<number, ListedRfq>();
    await d.redis.hincrby(k.walks, 'started', 1);
    let pages = 0;
    const outcome = await walkAccount(
      d.listingClient,
      dialect,
      limits,
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
    await d.redis.hincrby(k.walks, 'pages', pages);
    await learnEcho(withExt, noExt);
    if (!outcome.complete) {
      const churned = outcome.churn ? await d.redis.incr(k.churn) : 0;
      if (churned >= CHURN_BEFORE_GATE) await d.redis.set(k.gate, token, 'PX', GATE_MS);
      d.logger.debug(
        {
          event: 'reconcile.walk-incomplete',
          reason: outcome.reason,
          pending: pendings.length,
          settled: settledNow.size,
        },
        `walk of the RFQ lists incomplete: ${outcome.reason}`,
      );
      return;
    }
    await d.redis.hincrby(k.walks, 'complete', 1);
    await d.redis.del(k.churn, k.gate);

    const tracked = new Set((await d.redis.smembers(d.keys.trackedRfqs)).map(Number));
    const eligible = pendings.filter((p) => p.since < started && !settledNow.has(p.id));
    // fingerprint -> candidate RFQs (no external_id, not recorded for any requisition)
    const byFp = new Map<string, ListedRfq[]>();
    if (dialect.echo !== 'yes') {
      for (const r of noExt) {
        if (tracked.has(r._id)) continue;
        const fp = listedFingerprint(r);
        if (fp !== undefined) byFp.set(fp, [...(byFp.get(fp) ?? []), r]);
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
    for (const p of eligible) {
      const c = candidatesOf(p);
      let res: ReconcileResult;
      const only = c[0];
      if (c.length === 0) res = { walkStartedAt: started, outcome: 'absent' };
      else if (c.length > 1)
        res = ambiguous(started, `${c.length} RFQs match what was posted: ${c.map((r) => r._id).join(', ')}`, c);
      else if (only && (claimants.get(only._id)?.length ?? 0) > 1) {
        res = ambiguous(
          started,
          `RFQ ${only._id} matches ${claimants.get(only._id)!.length} requisitions: ${claimants.get(only._id)!.join(', ')}`,
          c,
        );
      } else if (
        only &&
        p.firstPostAt !== undefined &&
        only.rfq_date !== undefined &&
        only.rfq_date < p.firstPostAt - CLOCK_SKEW_MS
      ) {
        res = ambiguous(
          started,
          `RFQ ${only._id} matches what was posted but was made before our first POST (by hand?)`,
          c,
        );
      } else res = { walkStartedAt: started, outcome: 'found', rfq: only!, how: 'fingerprint' };
      await d.redis.hset(k.result, p.id, JSON.stringify(res));
    }
    d.logger.debug(
      {
        event: 'reconcile.walk-complete',
        read: outcome.read,
        pending: pendings.length,
        decided: eligible.length + settledNow.size,
        pages,
      },
      'walk of the RFQ lists complete',
    );
  }

  async function learnEcho(withExt: Map<number, ListedRfq>, noExt: ListedRfq[]): Promise<void> {
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

  const coordinator: ReconcileCoordinator = {
    async reconcile(entry) {
      const now = await redisNow();
      // the first registration of this lost answer holds: a later attempt must not push `since` forward
      const fresh: PendingEntry = { ...entry, since: now };
      if (!(await d.redis.hsetnx(k.pending, entry.id, JSON.stringify(fresh)))) {
        const held = JSON.parse((await d.redis.hget(k.pending, entry.id)) ?? 'null') as PendingEntry | null;
        if (
          held &&
          (held.fingerprints.join() !== entry.fingerprints.join() ||
            held.externalIds.join() !== entry.externalIds.join())
        ) {
          await d.redis.hset(k.pending, entry.id, JSON.stringify({ ...entry, since: held.since }));
        }
      }
      const since = JSON.parse((await d.redis.hget(k.pending, entry.id)) ?? JSON.stringify(fresh)).since as number;
      const ready = async () => {
        const raw = await d.redis.hget(k.result, entry.id);
        const r = raw ? (JSON.parse(raw) as ReconcileResult) : undefined;
        return r && r.walkStartedAt > since ? r : undefined;
      };
      const have = await ready();
      if (have) return have;
      const token = randomUUID();
      if ((await d.redis.set(k.lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK')
        throw new ReconcileUnstableError('waiting for the walk another worker is making', waitMs());
      const renew = setInterval(() => void renewS([k.lock], [token, LOCK_MS]).catch(() => undefined), LOCK_MS / 3);
      try {
        await walk(token);
      } finally {
        clearInterval(renew);
        await releaseS([k.lock], [token]);
      }
      const after = await ready();
      if (after) return after;
      throw new ReconcileUnstableError('the walk could not prove the lists complete', waitMs());
    },
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

function ambiguous(walkStartedAt: number, reason: string, c: ListedRfq[]): ReconcileResult {
  return { walkStartedAt, outcome: 'ambiguous', reason, rfqIds: c.map((r) => r._id) };
}

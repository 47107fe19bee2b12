/**
 * One walk of the account for every pending requisition (reconcile-coordinator.ts holds the lock around it): read
 * the lists (reconcile-walk.ts), settle by external_id what the walk shows, and, when the walk is complete and our
 * own recent RFQs are all listed, decide by the body posted for every requisition whose lists have settled
 * (reconcile-decision.ts), each candidate confirmed through the detail call where the service has one (what the
 * service can do is the listing strategy's to know: src/sourcing/account-reading.ts). For a requisition whose lists
 * have not settled yet, the walk is its early look (early-look.ts): it is adopted if found, nothing else. An incomplete
 * walk counts against every requisition it could have decided; at RECONCILE_MAX_WALKS it is parked with the reason.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import {
  hasExternalIds,
  type AccountReading,
  type Dialect,
  listingStrategyFor,
  type SourcingPort,
  type ListedRfq,
} from '../sourcing/index.ts';
import { normText } from './fingerprint.ts';
import type { PostedBody } from '../requisitions/index.ts';
import { looksEarly, markLooked } from './early-look.ts';
import { listSettleMs, settledFrom } from './list-settle.ts';
import {
  byTitle,
  candidatesOf,
  CLOCK_SKEW_MS,
  decideByBody,
  decideByExternalId,
  tooManyIncomplete,
  type KnownBodies,
  type PendingEntry,
  type ReconcileResult,
} from './reconcile-decision.ts';
import { walkAccount, type ReconcileLimits, type WalkOutcome } from './reconcile-walk.ts';
import {
  comparesUnreadable,
  couldBeOurs,
  heldBecause,
  holdForUnreadable,
  notRuledOut,
  type UnreadableDeps,
} from './reconcile-unreadable.ts';

/**
 * The gate holds new POSTs at most this long (a walker that dies leaves it behind), and once it opened cannot close
 * again for the rest time: creation always moves on, whatever the lists do.
 */
const GATE = { holdMs: 10_000, restMs: 20_000 };
/** Walks broken by churn in a row before new POSTs are held for a quiet walk. */
const CHURN_BEFORE_GATE = 2;
/** How far back our own posted RFQs are checked to be listed (recon:created keeps 10 minutes). */
const RECENT_MS = 10 * 60_000;

export interface CoordinatorDeps {
  redis: Redis;
  keys: RedisKeys;
  listingClient: Pick<SourcingPort, 'listRfqPages' | 'getRfq'>;
  dialect(): Promise<Pick<Dialect, 'unfiltered' | 'filter' | 'echo' | 'detail' | 'listLagMs'>>;
  /** What workers learn on the way: whether our own RFQs show their external_ids in lists. */
  learnEcho?(echo: 'yes' | 'no', evidence: string): Promise<void>;
  /** Our own recent RFQ is not listed after the settle time: the list lag is measured again on the next create. */
  lagSuspect?(evidence: string): Promise<void>;
  logger: Logger;
  reconcileLimits?: ReconcileLimits;
  /** SOURCING_LIST_SETTLE_MS: the least settle time of the lists. */
  settleFloorMs: number;
  /** SOURCING_LIST_SETTLE_UNMEASURED_MS: the settle time while the list lag is not measured (default 30 s). */
  settleUnmeasuredMs?: number;
  /** RECONCILE_MAX_WALKS: incomplete walks that could have decided a requisition before it is parked. */
  maxIncompleteWalks: number;
  /** How long the gate holds new POSTs, and how long after that it cannot close again (tests); default 10 s, 20 s. */
  gate?: { holdMs: number; restMs: number };
}

export interface ReconKeys {
  /** Walks in a row held up by records that cannot be read (reconcile-unreadable.ts). */
  unreadable: string;
  pending: string;
  result: string;
  lock: string;
  gate: string;
  gateRest: string;
  churn: string;
  walks: string;
  parked: string;
  incomplete: string;
  created: string;
  /** The early looks (early-look.ts). */
  looked: string;
  lostAt: string;
}

export interface WalkerState {
  d: CoordinatorDeps;
  k: ReconKeys;
  limits: ReconcileLimits;
}

export async function redisNow(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

/** What one walk read. */
interface AccountRead {
  outcome: WalkOutcome;
  pages: number;
  /** Every valid RFQ read, any pass. */
  all: Map<number, ListedRfq>;
}

/** One walk, serving every pending requisition (holding the lock `token`). Answers why it was incomplete, if it was. */
export async function walkOnce(s: WalkerState, token: string): Promise<string | undefined> {
  const { d, k } = s;
  const started = await redisNow(d.redis);
  const dialect = await d.dialect();
  const settle = listSettleMs(dialect, d.settleFloorMs, d.settleUnmeasuredMs);
  const listing = listingStrategyFor(dialect);
  const pendings = Object.values(await d.redis.hgetall(k.pending)).map((v) => JSON.parse(v) as PendingEntry);
  await d.redis.hincrby(k.walks, 'started', 1);
  const read = await readAccount(s, listing);
  await d.redis.hincrby(k.walks, 'pages', read.pages);
  const withExt = [...read.all.values()].filter(hasExternalIds);
  await learnEcho(s, read.all);

  const byExt = decideByExternalId(started, pendings, withExt);
  for (const [id, res] of byExt) await d.redis.hset(k.result, id, JSON.stringify(res));
  const eligible = pendings.filter((p) => p.since < started && !byExt.has(p.id) && started >= settledFrom(p, settle));
  const early = pendings.filter((p) => !byExt.has(p.id) && looksEarly(p, dialect, settle, started));
  const looked = () => markLooked(d.redis, k, early, started); // each gets one early look

  let outcome = read.outcome;
  if (outcome.complete) {
    const missing = await unlistedOwnRfqs(s, started, settle, read.all);
    if (missing) outcome = { complete: false, reason: missing, read: outcome.read };
  }
  if (!outcome.complete) {
    await looked();
    await incomplete(s, token, started, outcome, eligible, pendings.length);
    return outcome.reason;
  }
  await d.redis.hincrby(k.walks, 'complete', 1);
  await d.redis.del(k.churn);
  if (eligible.length + early.length === 0) return undefined;
  const results = await decideEligible(s, listing, started, eligible, pendings, read.all, early);
  for (const [id, res] of results) await d.redis.hset(k.result, id, JSON.stringify(res));
  await looked();
  if (eligible.length > 0) await d.redis.hdel(k.incomplete, ...eligible.map((p) => p.id));
  d.logger.debug(
    { event: 'reconcile.walk-complete', read: outcome.read, pending: pendings.length, decided: results.size },
    'walk of the RFQ lists complete',
  );
  return undefined;
}

async function readAccount(s: WalkerState, listing: AccountReading): Promise<AccountRead> {
  const all = new Map<number, ListedRfq>();
  let pages = 0;
  const outcome = await walkAccount(
    s.d.listingClient,
    listing.accountLists,
    s.limits,
    (rfq) => void all.set(rfq._id, rfq),
    async () => void pages++,
  );
  return { outcome, pages, all };
}

/**
 * Our own RFQs posted between RECENT_MS and the settle time before the walk must be in it: one that is not means
 * the lists lag more than measured (or hide RFQs), and the walk proves nothing.
 */
async function unlistedOwnRfqs(
  s: WalkerState,
  started: number,
  settle: number,
  all: Map<number, ListedRfq>,
): Promise<string | undefined> {
  const recent = await s.d.redis.zrangebyscore(s.k.created, started - RECENT_MS, started - settle);
  const missing = recent.map(Number).filter((id) => !all.has(id));
  if (missing.length === 0) return undefined;
  const why = `our RFQ(s) ${missing.slice(0, 5).join(', ')} posted more than ${settle} ms before the walk are not listed: the lists lag more than measured, or hide RFQs`;
  await s.d.lagSuspect?.(why);
  return why;
}

/** An incomplete walk: the gate after churn, and a count against every requisition it could have decided. */
async function incomplete(
  s: WalkerState,
  token: string,
  started: number,
  outcome: WalkOutcome,
  eligible: PendingEntry[],
  pending: number,
): Promise<void> {
  const { d, k } = s;
  const reason = outcome.reason ?? 'incomplete';
  if (outcome.churn && (await d.redis.incr(k.churn)) >= CHURN_BEFORE_GATE && !(await d.redis.exists(k.gateRest))) {
    const { holdMs, restMs } = d.gate ?? GATE;
    const gate = { reason: `the RFQ lists kept changing while read (${reason})`, until: started + holdMs, token };
    await d.redis
      .multi()
      .set(k.gate, JSON.stringify(gate), 'PX', holdMs)
      .set(k.gateRest, '1', 'PX', holdMs + restMs)
      .exec();
  }
  d.logger.info(
    { event: 'reconcile.walk-incomplete', reason, pending, couldDecide: eligible.length },
    `walk of the RFQ lists incomplete: ${reason}`,
  );
  for (const p of eligible) {
    const n = await d.redis.hincrby(k.incomplete, p.id, 1);
    if (n >= d.maxIncompleteWalks)
      await d.redis.hset(k.result, p.id, JSON.stringify(tooManyIncomplete(started, n, reason)));
  }
  // records whose identity cannot be read will not change by waiting long: parked sooner (reconcile-unreadable.ts)
  if (outcome.broken && !outcome.churn)
    await holdForUnreadable(
      unreadableDeps(s),
      started,
      eligible.map((p) => p.id),
      [],
      reason,
    );
}

function unreadableDeps({ d, k }: WalkerState): UnreadableDeps {
  return { redis: d.redis, logger: d.logger, counterKey: k.unreadable, resultKey: k.result };
}

/**
 * After a complete walk: every eligible requisition decided by the body posted; of those it is the early look for
 * (`early`), only the ones found (anything else waits for their lists to settle).
 */
async function decideEligible(
  s: WalkerState,
  listing: AccountReading,
  started: number,
  settled: PendingEntry[],
  pendings: PendingEntry[],
  all: Map<number, ListedRfq>,
  early: PendingEntry[],
): Promise<Map<string, ReconcileResult>> {
  const eligible = [...settled, ...early];
  const out = new Map<string, ReconcileResult>();
  // RFQs that could be ours without showing external_ids (none where lists show them), and not recorded for any
  const tracked = new Set((await s.d.redis.smembers(s.d.keys.trackedRfqs)).map(Number));
  const unmarked = listing.unmarked(all.values()).filter((r) => !tracked.has(r._id));
  const titles = new Set(eligible.flatMap((p) => p.posted.map((b) => normText(b.title))));
  const confirmed = await listing.detailed(
    s.d.listingClient,
    unmarked.filter((r) => r.title !== undefined && titles.has(normText(r.title))),
  );
  // the detail call may show the external_ids a list leaves out: by them, not by body
  for (const [id, res] of decideByExternalId(started, eligible, confirmed.filter(hasExternalIds))) out.set(id, res);
  const free = confirmed.filter((r) => !hasExternalIds(r));
  // an RFQ with a compared field that cannot be read, made since a requisition's first POST and not ruled out by
  // what can be read of it, could be that requisition's: its decision is held (reconcile-unreadable.ts)
  const seenAs = new Map(free.map((r) => [r._id, r])); // as the detail call showed it, where it did
  const unknown = unmarked
    .map((r) => seenAs.get(r._id) ?? r)
    .filter((r) => !hasExternalIds(r) && comparesUnreadable(r));
  const known: KnownBodies = free.length > 0 ? await knownBodies(s, eligible, pendings) : () => [];
  const titled = byTitle(free.filter((r) => !comparesUnreadable(r)));
  const held: Array<{ p: PendingEntry; rfqs: ListedRfq[] }> = [];
  for (const p of eligible) {
    if (out.has(p.id)) continue;
    const could = couldBeOurs(unknown, p.firstPostAt, CLOCK_SKEW_MS).filter((r) => notRuledOut(r, p.posted));
    if (could.length === 0) out.set(p.id, decideByBody(started, p, candidatesOf(p, titled, known)));
    else if (!early.includes(p)) held.push({ p, rfqs: could }); // an early look holds nothing: it decides nothing
  }
  if (held.length > 0) {
    const { rfqIds, why } = heldBecause(held);
    const ids = held.map((h) => h.p.id);
    await holdForUnreadable(unreadableDeps(s), started, ids, rfqIds, why);
  } else if (settled.length > 0) await s.d.redis.del(s.k.unreadable);
  for (const p of early) if (out.get(p.id)?.outcome !== 'found') out.delete(p.id);
  return out;
}

/** Every known requisition's posted bodies under the index keys of the eligible ones' bodies (recon index sets). */
async function knownBodies(s: WalkerState, eligible: PendingEntry[], pendings: PendingEntry[]): Promise<KnownBodies> {
  const { redis, keys } = s.d;
  const pendingById = new Map(pendings.map((p) => [p.id, p]));
  const byNear = new Map<string, Array<{ id: string; posted: PostedBody[] }>>();
  for (const near of new Set(eligible.flatMap((p) => p.posted.map((b) => b.near)))) {
    const ids = await redis.smembers(keys.key('posted', near));
    const list: Array<{ id: string; posted: PostedBody[] }> = [];
    for (const id of ids) {
      const p = pendingById.get(id);
      const posted = p
        ? p.posted
        : (JSON.parse((await redis.hget(keys.requisition(id), 'posted')) ?? '[]') as PostedBody[]);
      list.push({ id, posted });
    }
    byNear.set(near, list);
  }
  return (near) => byNear.get(near) ?? [];
}

/** What workers learn on the way: whether our own RFQs (the last 50 tracked) show their external_ids in lists. */
async function learnEcho(s: WalkerState, all: Map<number, ListedRfq>): Promise<void> {
  const { d } = s;
  if (!d.learnEcho) return;
  const tracked = (await d.redis.smembers(d.keys.trackedRfqs)).slice(-50).map(Number);
  for (const id of tracked) {
    const r = all.get(id);
    if (r && hasExternalIds(r))
      return d.learnEcho('yes', `external_id echo: yes (our RFQ ${id} lists its lines' external_ids)`);
  }
  const ours = tracked.map((id) => all.get(id)).find((r) => r !== undefined && r.lines.length > 0);
  if (ours)
    await d.learnEcho('no', `external_id echo: no (our RFQ ${ours._id} is listed without its lines' external_ids)`);
}

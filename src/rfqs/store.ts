/**
 * RFQ tracking records in Redis.
 *
 * Layout (all under the account namespace of redis-keys.ts):
 *   - `keys.rfq(id)` hash, fields `track` (JSON TrackedRfq) and `seq` (write counter). create-rfq may keep its own
 *     fields in the same hash; these two are ours.
 *   - `keys.trackedRfqs` set of RFQ ids the poller follows;
 *   - `trk:state:<state>` one set per state and `trk:flagged` (missing from every list), so `status` counts
 *     without reading every record;
 *   - `trk:listed:<id>` the RFQ as last listed (header and lines for the workbook);
 *   - `trk:snap:<id>` + `trk:snapseq:<id>` the quotation snapshot a comparison job writes from
 *     (src/awarding/snapshot.ts);
 *   - `trk:lastpoll`, `trk:lastokpoll` (finish time of the last successful one), `trk:polls` (last 100 poll results), `trk:poll:lock`;
 *   - `trk:reported` hash `<rfq>|<field>` -> first report time: record fields that could not be read, said once (report-once.ts).
 * Every record write is a compare-and-set on `seq` inside one Lua script that also moves the id between the state
 * and flag sets, so two writers (a poll and a comparison job) never lose each other's change.
 */
import type { Redis } from 'ioredis';
import { UnexpectedError } from '../core/index.ts';
import { type RedisKeys, defineScript, loadScript, type ScriptCaller, type ScriptFlag } from '../redis/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';
import { newTrackedRfq, TRACKED_STATES, type TrackedRfq, type TrackedState } from './record.ts';

export interface TrackingKeys {
  rfq(id: number): string;
  tracked: string;
  state(s: TrackedState): string;
  flagged: string;
  listed(id: number): string;
  snapshot(id: number): string;
  snapshotSeq(id: number): string;
  lastPoll: string;
  lastOkPoll: string;
  polls: string;
  pollLock: string;
  reported: string;
}

export function trackingKeys(keys: RedisKeys): TrackingKeys {
  return {
    rfq: (id) => keys.rfq(id),
    tracked: keys.trackedRfqs,
    state: (s) => keys.key('trk', 'state', s),
    flagged: keys.key('trk', 'flagged'),
    listed: (id) => keys.key('trk', 'listed', id),
    snapshot: (id) => keys.key('trk', 'snap', id),
    snapshotSeq: (id) => keys.key('trk', 'snapseq', id),
    lastPoll: keys.key('trk', 'lastpoll'),
    lastOkPoll: keys.key('trk', 'lastokpoll'),
    polls: keys.key('trk', 'polls'),
    pollLock: keys.key('trk', 'poll', 'lock'),
    reported: keys.key('trk', 'reported'),
  };
}

const CAS_SCRIPT = loadScript<ScriptFlag>('trackCas-5.lua');

export class TrackingStore {
  readonly redis: Redis;
  readonly k: TrackingKeys;
  /** EVALSHA, not EVAL: the script text is not sent (nor hashed by Redis) on every create and poll. */
  private readonly cas: ScriptCaller<ScriptFlag>;

  constructor(redis: Redis, keys: RedisKeys) {
    this.redis = redis;
    this.k = trackingKeys(keys);
    this.cas = defineScript(redis, CAS_SCRIPT);
  }

  async get(rfqId: number): Promise<TrackedRfq | undefined> {
    const [json, seq] = await this.redis.hmget(this.k.rfq(rfqId), 'track', 'seq');
    return parseRecord(json, seq);
  }

  /** Records of many ids in one round trip (missing ones are undefined). */
  async getMany(ids: readonly number[]): Promise<Array<TrackedRfq | undefined>> {
    if (ids.length === 0) return [];
    const p = this.redis.pipeline();
    for (const id of ids) p.hmget(this.k.rfq(id), 'track', 'seq');
    const res = (await p.exec()) ?? [];
    return res.map(([err, v]) => {
      if (err) throw err;
      const [json, seq] = v as [string | null, string | null];
      return parseRecord(json, seq);
    });
  }

  /** A record for an id found in the tracked set without one (tracked by another writer of that set). */
  fresh(rfqId: number, now = Date.now()): TrackedRfq {
    return newTrackedRfq(rfqId, now);
  }

  async trackedIds(): Promise<number[]> {
    return (await this.redis.smembers(this.k.tracked)).map(Number).filter(Number.isSafeInteger);
  }

  /**
   * Write `next` if the stored record is still `prev` (same seq). `prev` undefined: only if none is stored.
   * Returns false when somebody else wrote in between (re-read and decide again).
   */
  async compareAndSet(prev: TrackedRfq | undefined, next: TrackedRfq): Promise<boolean> {
    const expected = prev?.seq ?? 0;
    const stored: TrackedRfq = { ...next, seq: expected + 1 };
    const ok = await this.cas(
      [
        this.k.rfq(next.rfqId),
        this.k.state(prev?.state ?? next.state),
        this.k.state(next.state),
        this.k.flagged,
        this.k.tracked,
      ],
      [String(expected), JSON.stringify(stored), String(next.rfqId), next.flaggedAt !== undefined ? '1' : '0'],
    );
    if (ok === 1) next.seq = expected + 1;
    return ok === 1;
  }

  /**
   * Read-modify-write with retries. `change` returns the next record, or undefined to leave it as is.
   * A missing record is passed as undefined. Returns the record as stored afterwards.
   */
  async update(
    rfqId: number,
    change: (cur: TrackedRfq | undefined) => TrackedRfq | undefined,
  ): Promise<TrackedRfq | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const cur = await this.get(rfqId);
      const next = change(cur === undefined ? undefined : structuredClone(cur));
      if (next === undefined) return cur;
      if (await this.compareAndSet(cur, next)) return next;
    }
    throw new UnexpectedError(`tracking record of RFQ ${rfqId} kept changing under 20 attempts to update it`);
  }

  /** Start tracking (idempotent: an existing record is kept, its requisition filled in if it had none). */
  async track(rfqId: number, requisition: TrackedRfq['requisition'], now = Date.now()): Promise<TrackedRfq> {
    // A just-created RFQ has no record yet: write it if none is stored, in one round trip (no read first).
    const fresh = newTrackedRfq(rfqId, now, requisition);
    if (await this.compareAndSet(undefined, fresh)) return fresh;
    const rec = await this.update(rfqId, (cur) => {
      if (!cur) return newTrackedRfq(rfqId, now, requisition);
      if (!cur.requisition && requisition) return { ...cur, requisition };
      return undefined;
    });
    return rec ?? newTrackedRfq(rfqId, now, requisition);
  }

  async countByState(): Promise<Record<TrackedState, number>> {
    const p = this.redis.pipeline();
    for (const s of TRACKED_STATES) p.scard(this.k.state(s));
    const res = (await p.exec()) ?? [];
    const out = {} as Record<TrackedState, number>;
    TRACKED_STATES.forEach((s, i) => {
      out[s] = Number(res[i]?.[1] ?? 0);
    });
    return out;
  }

  async idsInState(state: TrackedState): Promise<number[]> {
    return (await this.redis.smembers(this.k.state(state))).map(Number).sort((a, b) => a - b);
  }

  async flaggedIds(): Promise<number[]> {
    return (await this.redis.smembers(this.k.flagged)).map(Number).sort((a, b) => a - b);
  }

  async putListed(rfq: ListedRfq): Promise<void> {
    await this.redis.set(this.k.listed(rfq._id), JSON.stringify(rfq));
  }

  async getListed(rfqId: number): Promise<ListedRfq | undefined> {
    const json = await this.redis.get(this.k.listed(rfqId));
    return json ? (JSON.parse(json) as ListedRfq) : undefined;
  }
}

function parseRecord(json: string | null | undefined, seq: string | null | undefined): TrackedRfq | undefined {
  if (!json) return undefined;
  const rec = JSON.parse(json) as TrackedRfq;
  rec.seq = Number(seq ?? rec.seq ?? 0);
  return rec;
}

/** The tracking records of the context's account: a view over its Redis client and keys, cheap to make, holds nothing. */
export function trackingStore(ctx: { redis: Redis; keys: RedisKeys }): TrackingStore {
  return new TrackingStore(ctx.redis, ctx.keys);
}

/**
 * After a create of ours is answered: measure the account's list lag (src/sourcing/list-lag.ts) when the dialect has
 * no fresh measurement, in the background (the create job does not wait), one probe per account at a time across
 * all workers (a Redis lock, kept a while after a probe that saw nothing, so a list that never shows our RFQs is not
 * read over and over).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import { type RedisKeys, LOCK_RELEASE, LOCK_RENEW, defineScript } from '../redis/index.ts';
import { measureListLag, type SourcingPort, listingStrategyFor } from '../sourcing/index.ts';
import { DIALECT_MAX_AGE_MS, type DialectSource } from './dialect-store.ts';
import { readsFirst } from './rate-limiter.ts';

/** A probe gives up after this long. */
export const LAG_PROBE_MAX_MS = 60_000;
/** After a probe that saw nothing, the next one waits this long. */
const FAILED_PROBE_REST_MS = 10 * 60_000;
/** The probe's lock lives this long unless renewed (a worker killed mid-probe frees it soon). */
const LOCK_MS = 5_000;

export interface LagProbe {
  /** Our RFQ `rfqId` was created; its create was answered at `answeredAt` (this host's ms). Never throws. */
  afterCreate(rfqId: number, answeredAt: number): void;
  /** Resolves when the probe in flight, if any, is done (tests, shutdown). */
  idle(): Promise<void>;
}

export function createLagProbe(o: {
  redis: Redis;
  keys: RedisKeys;
  port: Pick<SourcingPort, 'listRfqPages'>;
  dialects: Pick<DialectSource, 'get' | 'learn'>;
  logger: Logger;
}): LagProbe {
  const lock = o.keys.key('recon', 'lag-probe');
  const renewLock = defineScript(o.redis, LOCK_RENEW);
  const releaseLock = defineScript(o.redis, LOCK_RELEASE);
  let running: Promise<void> = Promise.resolve();
  const probe = async (rfqId: number, answeredAt: number) => {
    const d = await readsFirst(() => o.dialects.get()); // detected now if no worker did yet
    const fresh = d.listLagMs !== undefined && Date.now() - (d.listLagAt ?? 0) < DIALECT_MAX_AGE_MS;
    if (fresh) return;
    const list = listingStrategyFor(d).newestList;
    if (list === undefined) return;
    const token = randomUUID();
    if ((await o.redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') return;
    const renew = setInterval(() => void renewLock([lock], [token, LOCK_MS]).catch(() => undefined), LOCK_MS / 3);
    let m: Awaited<ReturnType<typeof measureListLag>>;
    try {
      const created = o.keys.key('recon', 'created'); // our RFQs posted lately, by the time recorded (record-5.lua)
      const from = await o.redis.zscore(created, String(rfqId));
      const later = async () =>
        new Set(from === null ? [] : (await o.redis.zrangebyscore(created, `(${from}`, '+inf')).map(Number));
      // its reads decide how long every lost answer waits: they take their permits ahead of the creates
      m = await readsFirst(() =>
        measureListLag(o.port, list, rfqId, answeredAt, { maxMs: LAG_PROBE_MAX_MS, wholeListPages: 20, later }),
      );
    } finally {
      clearInterval(renew);
    }
    if (m.lagMs === undefined) {
      await o.redis.set(lock, token, 'PX', FAILED_PROBE_REST_MS);
      o.logger.warn({ event: 'dialect.list-lag', requests: m.requests }, m.evidence);
      return;
    }
    await o.dialects.learn({ listLagMs: m.lagMs, evidence: m.evidence });
    await releaseLock([lock], [token]);
  };
  return {
    afterCreate(rfqId, answeredAt) {
      running = running
        .then(() => probe(rfqId, answeredAt))
        .catch((err: unknown) => o.logger.debug({ event: 'dialect.list-lag', err }, 'list lag not measured this time'));
    },
    idle: () => running,
  };
}

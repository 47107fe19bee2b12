import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { TrackingStore } from '../../src/rfqs/store.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';

const srv = useRedis();
const clients: Redis[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.quit()));
});

function ctx() {
  const redis = new Redis(srv.url);
  clients.push(redis);
  return { redis, keys: redisKeys(freshPrefix(), 'acct') };
}

const req = { key: 'PR-1', sourceFile: 'export.csv', profile: 'sap', title: 'Pumps' };

describe('tracking store (real Redis)', () => {
  it('trackRfq is idempotent: a second call keeps the record and its history', async () => {
    const c = ctx();
    const store = new TrackingStore(c.redis, c.keys);
    await trackRfq(c, { rfqId: 5, requisition: req });
    await store.update(5, (r) => r && { ...r, state: 'open', transitions: [{ from: 'created', to: 'open', at: 1 }] });
    await trackRfq(c, { rfqId: 5, requisition: req });
    const rec = await store.get(5);
    expect(rec?.state).toBe('open');
    expect(rec?.transitions).toHaveLength(1);
    expect(rec?.requisition).toEqual(req);
    expect(await store.trackedIds()).toEqual([5]);
    expect((await store.countByState()).open).toBe(1);
    expect((await store.countByState()).created).toBe(0);
  });

  it('a new RFQ is tracked in one call to Redis, by EVALSHA (no script text sent, no read first: CPU per created RFQ)', async () => {
    const c = ctx();
    await trackRfq(c, { rfqId: 1, requisition: req }); // loads the script once
    const admin = new Redis(srv.url);
    clients.push(admin);
    await admin.config('RESETSTAT');
    for (let id = 2; id <= 11; id++) await trackRfq(c, { rfqId: id, requisition: req });
    const stats = await admin.info('commandstats');
    const calls = (cmd: string) => Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
    expect(calls('evalsha')).toBe(10);
    expect(calls('eval')).toBe(0);
    expect(calls('hmget')).toBe(0);
    expect(await new TrackingStore(c.redis, c.keys).trackedIds()).toHaveLength(11);
  });

  it('compare-and-set refuses a stale write, so concurrent writers never lose a change', async () => {
    const c = ctx();
    const store = new TrackingStore(c.redis, c.keys);
    await trackRfq(c, { rfqId: 9, requisition: req });
    const a = await store.get(9);
    const b = await store.get(9);
    expect(await store.compareAndSet(a, { ...a!, state: 'closed' })).toBe(true);
    expect(await store.compareAndSet(b, { ...b!, missingPolls: 1 })).toBe(false);
    // Concurrent read-modify-write increments: all land.
    await Promise.all(
      Array.from({ length: 20 }, () => store.update(9, (r) => r && { ...r, missingPolls: r.missingPolls + 1 })),
    );
    expect((await store.get(9))?.missingPolls).toBe(20);
    expect(await store.idsInState('closed')).toEqual([9]);
  });

  it('keeps the flagged set in step with the record', async () => {
    const c = ctx();
    const store = new TrackingStore(c.redis, c.keys);
    await trackRfq(c, { rfqId: 3, requisition: req });
    await store.update(3, (r) => r && { ...r, flaggedAt: 10 });
    expect(await store.flaggedIds()).toEqual([3]);
    await store.update(3, (r) => {
      if (!r) return undefined;
      const { flaggedAt: _f, ...rest } = r;
      return rest;
    });
    expect(await store.flaggedIds()).toEqual([]);
  });
});

/**
 * A read with priority (the dialect's detection, the list-lag probe, a webhook's targeted check) takes the first
 * slot a caller without priority is waiting for, so its wait does not grow with the queue in front of it. Seen
 * failing in CI (rate-limit-all-calls): with listing pages holding slots 3 s ahead (they may wait 30 s), the
 * detection's GET was refused with ThrottledError after its 2 s, because the limit was checked against the end of
 * the schedule instead of the slot the priority read takes.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, readsFirst } from '../../src/account/rate-limiter.ts';
import { redisKeys } from '../../src/redis/index.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { ThrottledError } from '../../src/core/index.ts';

const r = useRedis();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(r.url);
});
afterAll(async () => {
  await redis.quit();
});

describe('the rate limiter, priority reads', () => {
  it('a priority read is served within its 2 s while 20 listing pages hold slots 4 s ahead; the bound still holds', async () => {
    const limiter = createRateLimiter(redis, redisKeys(freshPrefix(), 'acct'), { perSecond: 5 });
    const sent: { at: number; who: string }[] = [];
    const call = (who: string, opts: Parameters<typeof limiter.acquire>[0]) =>
      limiter.acquire(opts).then(() => sent.push({ at: Date.now(), who }));
    const started = Date.now();
    const pages = Array.from({ length: 20 }, (_, i) => call(`page ${i}`, { maxWaitMs: 30_000 }));
    await new Promise((res) => setTimeout(res, 50)); // the pages have reserved their slots
    const priority = await readsFirst(() => call('priority', { priority: true })).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(priority, 'the priority read got a slot').toBeUndefined();
    expect(sent.find((s) => s.who === 'priority')!.at - started).toBeLessThan(2_000);
    await Promise.all(pages);
    expect(sent).toHaveLength(21);
    const times = sent.map((s) => s.at).sort((a, b) => a - b);
    for (let e = 0, b = 0; e < times.length; e++) {
      while (times[e]! - times[b]! >= 1000) b++;
      expect(e - b + 1, 'calls in any 1 s').toBeLessThanOrEqual(5);
    }
  }, 20_000);

  it('a read without priority behind the same queue is still refused beyond its 2 s (its job is delayed)', async () => {
    const limiter = createRateLimiter(redis, redisKeys(freshPrefix(), 'acct'), { perSecond: 5 });
    const pages = Array.from({ length: 20 }, () => limiter.acquire({ maxWaitMs: 30_000 }));
    await new Promise((res) => setTimeout(res, 50));
    await expect(limiter.acquire()).rejects.toBeInstanceOf(ThrottledError);
    await Promise.all(pages);
  }, 20_000);
});

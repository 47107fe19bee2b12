/**
 * The vendor directory kept in Redis (real redis-server, scripted service answers): read at most hourly with the
 * poll, a failed read keeps the vendors read before and is tried again sooner, a service without a directory is said
 * once in the log, an ingest never waits for the service (with none stored, a read starts in the background).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientHttpError } from '../../src/core/errors.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import type { VendorListing } from '../../src/sourcing/vendor-types.ts';
import { FAILED_RETRY_MS, VENDOR_REFRESH_MS, vendorStore, type VendorPort } from '../../src/vendors/vendor-store.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { captureLogs } from '../sourcing/fake-service.ts';

const redisServer = useRedis();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(redisServer.url);
});
afterAll(() => redis.quit());

/** A service whose answers are scripted one by one; counts the reads. */
function port(...answers: Array<VendorListing | Error>): VendorPort & { reads: number } {
  const p = {
    reads: 0,
    async listVendors(): Promise<VendorListing> {
      const a = answers[Math.min(p.reads++, answers.length - 1)]!;
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return p;
}

const ok = (...names: string[]): VendorListing => ({
  outcome: 'ok',
  path: '/v1/vendors',
  pages: 1,
  invalid: [],
  vendors: names.map((name, i) => ({ id: String(i + 1), name, categories: ['Tools'] })),
});
const absent: VendorListing = { outcome: 'absent', tried: [{ path: '/v1/vendors', status: 404 }] };

describe('vendor store', () => {
  it('reads at most hourly with the poll; a failed read keeps what was read and is tried again after 10 minutes', async () => {
    const logs = captureLogs();
    const store = vendorStore({ redis, keys: redisKeys(freshPrefix(), 'acct'), logger: logs.logger });
    const svc = port(
      ok('A', 'B'),
      new TransientHttpError({ operation: 'listVendors', status: 503 }),
      ok('A', 'B', 'C'),
    );
    const t0 = Date.now();
    expect((await store.refreshIfStale(svc, t0))!.vendors).toHaveLength(2);
    expect((await store.refreshIfStale(svc, t0 + VENDOR_REFRESH_MS - 60_000))!.vendors).toHaveLength(2);
    expect(svc.reads).toBe(1); // within the hour: the stored one
    const failed = (await store.refreshIfStale(svc, Date.now() + VENDOR_REFRESH_MS))!;
    expect(svc.reads).toBe(2);
    expect(failed).toMatchObject({ outcome: 'failed', readAt: expect.any(Number) });
    expect(failed.vendors.map((v) => v.name)).toEqual(['A', 'B']); // still in use
    expect(logs.lines().some((l) => l.event === 'vendors.failed')).toBe(true);
    expect(await store.refreshIfStale(svc, failed.fetchedAt + FAILED_RETRY_MS - 1_000)).toEqual(failed);
    expect((await store.refreshIfStale(svc, failed.fetchedAt + FAILED_RETRY_MS))!.vendors).toHaveLength(3);
    expect(svc.reads).toBe(3);
  });

  it('a service without a directory is said once; an ingest never waits for it, and starts a read only when none is stored', async () => {
    const logs = captureLogs();
    const store = vendorStore({ redis, keys: redisKeys(freshPrefix(), 'acct'), logger: logs.logger });
    let answer: (v: VendorListing) => void = () => undefined;
    const slow: VendorPort & { reads: number } = {
      reads: 0,
      listVendors: () => {
        slow.reads++;
        return new Promise<VendorListing>((resolve) => (answer = resolve));
      },
    };
    expect(await store.forIngest(undefined)).toBeUndefined(); // no client: nothing read
    // the service has not answered: the ingest goes on without a directory, the read goes on in the background
    expect(await store.forIngest(slow)).toBeUndefined();
    await waitFor('the background read', async () => slow.reads === 1, 5_000, 5);
    answer(absent);
    await store.reading;
    expect((await store.forIngest(slow))!.outcome).toBe('absent');
    expect(slow.reads).toBe(1);
    const svc = port(absent);
    await store.refresh(svc);
    await store.refresh(svc);
    expect(logs.lines().filter((l) => l.event === 'vendors.absent')).toHaveLength(1);
    // a port that cannot even be called is a failed read, never an exception for the caller
    const broken = { listVendors: undefined } as unknown as VendorPort;
    expect((await store.refreshIfStale(broken, Date.now() + VENDOR_REFRESH_MS))!.outcome).toBe('failed');
  });
});

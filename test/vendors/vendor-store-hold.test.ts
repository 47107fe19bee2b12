/**
 * forHold, the read an ingest with CATEGORY_CHECK=hold makes when no vendor directory was read yet (real
 * redis-server, scripted service answers): it reads and waits for the answer; a service that never answers is given
 * up on at the bound; another worker's read in progress is waited for, not doubled; a read that failed moments ago
 * is not tried again by the next file; a stored directory (or a service without one) is used without a read.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientHttpError } from '../../src/core/errors.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import type { VendorListing } from '../../src/sourcing/vendor-types.ts';
import { vendorStore, type VendorPort } from '../../src/vendors/vendor-store.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { captureLogs } from '../sourcing/fake-service.ts';

const redisServer = useRedis();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(redisServer.url);
});
afterAll(() => redis.quit());

const ok: VendorListing = {
  outcome: 'ok',
  path: '/v1/vendors',
  pages: 1,
  invalid: [],
  vendors: [{ id: '1', name: 'Acme', categories: ['Tools'] }],
};

/** A service answering `answer` to each read (a function: called with the read's signal), counting the reads. */
function port(answer: (signal?: AbortSignal) => Promise<VendorListing>): VendorPort & { reads: number } {
  const p = {
    reads: 0,
    listVendors(opts?: { signal?: AbortSignal }): Promise<VendorListing> {
      p.reads++;
      return answer(opts?.signal);
    },
  };
  return p;
}

/** Never answers; rejects when the read is aborted. */
const hang = (signal?: AbortSignal) =>
  new Promise<VendorListing>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));

function fresh() {
  const keys = redisKeys(freshPrefix(), 'acct');
  return { keys, store: vendorStore({ redis, keys, logger: captureLogs().logger }) };
}

describe('forHold', () => {
  it('with nothing stored, reads the directory and returns it', async () => {
    const { store } = fresh();
    const svc = port(async () => ok);
    expect(await store.forHold(svc, 5_000)).toMatchObject({ outcome: 'ok', readAt: expect.any(Number) });
    expect(svc.reads).toBe(1);
    // stored now: the next file reads nothing
    expect(await store.forHold(svc, 5_000)).toMatchObject({ outcome: 'ok' });
    expect(svc.reads).toBe(1);
  });

  it('a service that never answers is given up on at the bound: stored as failed, never read', async () => {
    const { store } = fresh();
    const svc = port(hang);
    const got = await store.forHold(svc, 300);
    expect(got).toMatchObject({ outcome: 'failed' });
    expect(got!.readAt).toBeUndefined();
    // the next file does not wait again for a read that failed moments ago
    expect(await store.forHold(svc, 60_000)).toMatchObject({ outcome: 'failed' });
    expect(svc.reads).toBe(1);
  });

  it("another worker's read in progress is waited for, not doubled", async () => {
    const { keys, store } = fresh();
    await redis.set(keys.key('vendors', 'lock'), '1', 'PX', 60_000);
    const svc = port(async () => ok);
    const waiting = store.forHold(svc, 10_000);
    // the other worker's read lands
    const other = vendorStore({ redis, keys, logger: captureLogs().logger });
    await other.refresh(port(async () => ok));
    await redis.del(keys.key('vendors', 'lock'));
    expect(await waiting).toMatchObject({ outcome: 'ok' });
    expect(svc.reads).toBe(0);
  });

  it('a service without a directory is used as it is (nothing to wait for)', async () => {
    const { store } = fresh();
    await store.refresh(port(async () => ({ outcome: 'absent', tried: [{ path: '/v1/vendors', status: 404 }] })));
    const svc = port(async () => {
      throw new TransientHttpError({ operation: 'listVendors', status: 503 });
    });
    expect(await store.forHold(svc, 5_000)).toMatchObject({ outcome: 'absent' });
    expect(svc.reads).toBe(0);
  });
});

/**
 * Every state change of an idempotency record is one script (src/creation/idempotency-store.ts): two workers adding
 * supplements to one requisition at once lose none, and an operator's "retry" clears only a rejection that is still
 * there. Real Redis; the calls race on separate connections as two workers' would.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';

const server = useRedis();
const connections: Redis[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.disconnect();
});
const connect = () => {
  const c = new Redis(server.url);
  connections.push(c);
  return c;
};

describe('idempotency record updates are atomic', () => {
  it('40 supplements added at once by four workers: every one is kept, each once', async () => {
    const keys = redisKeys(freshPrefix(), 'acct');
    const stores = Array.from({ length: 4 }, () => createIdempotencyStore(connect(), keys));
    const id = 'generic/PR-1';
    const supp = Array.from({ length: 40 }, (_, i) => `${id}#supp-${i}`);
    await Promise.all(supp.map((s, i) => stores[i % 4]!.addSupplement(id, s)));
    await Promise.all(supp.map((s, i) => stores[(i + 1) % 4]!.addSupplement(id, s))); // again: no double
    const raw = JSON.parse((await connections[0]!.hget(keys.requisition(id), 'supplements')) ?? '[]') as string[];
    expect([...raw].sort()).toEqual([...supp].sort());
  });

  it('clearRejection clears a rejection, and leaves a record that is no longer rejected alone', async () => {
    const keys = redisKeys(freshPrefix(), 'acct');
    const store = createIdempotencyStore(connect(), keys);
    const [r] = makeRequisitions(1, 'clear');
    const id = `generic/${r!.key}`;
    await store.reject(r!, '', 'HTTP 422', 'hash-1');
    await store.clearRejection(id);
    // the same content may now be claimed again (the operator's retry)
    expect((await store.claim(r!, 'tok', 'hash-1', 5_000)).status).toBe('claimed');
    const before = await connections[0]!.hgetall(keys.requisition(id));
    await store.clearRejection(id); // pending now: nothing to clear
    expect(await connections[0]!.hgetall(keys.requisition(id))).toEqual(before);
  });
});

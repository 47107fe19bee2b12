/**
 * `rfq-sync recover` seeds each requisition of the archived exports (seedForRecovery-4.lua) so the next attempt
 * reconciles before it posts. The seed must refuse the same external_ids as a claim does (includes/claimConflicts):
 * ids another requisition holds make it a conflict, and a refused seed writes nothing (no record, no claim, no index
 * entry), or the requisition would later post lines that already belong to another RFQ. Real Redis.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { postedBodyOf } from '../../src/creation/fingerprint.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { toCreateRfqRequest } from '../../src/requisitions/rfq-body.ts';
import { redisKeys, requisitionId } from '../../src/redis/redis-keys.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';

const redis = useRedis();

function fixture() {
  const r = new Redis(redis.url);
  const keys = redisKeys(freshPrefix(), 'seed');
  return { r, keys, store: createIdempotencyStore(r, keys) };
}

const bodyOf = (r: Requisition) => postedBodyOf(toCreateRfqRequest(r));

/** Requisition `key` with exactly these external_ids. */
function withIds(base: Requisition, key: string, ids: string[]): Requisition {
  const line = base.lines[0]!;
  return { ...base, key, lines: ids.map((external_id, i) => ({ ...line, external_id, row: 2 + i })) };
}

describe('the recovery seed', () => {
  it('seeds a requisition once: claimed ids, `creating`, the body it would post noted and indexed; a second seed says it exists', async () => {
    const { r, keys, store } = fixture();
    const [base] = makeRequisitions(1, 'seed');
    const a = withIds(base!, 'PR-A', ['X-1', 'X-2']);
    try {
      expect(await store.seedForRecovery(a, 'hash-a', bodyOf(a))).toEqual({ status: 'seeded' });
      const rec = await store.get(requisitionId(a));
      expect(rec?.state).toBe('creating');
      expect(rec?.claimed).toEqual(['X-1', 'X-2']);
      expect(rec?.posted).toEqual([bodyOf(a)]);
      expect(await r.smembers(keys.key('posted', bodyOf(a).near))).toEqual([requisitionId(a)]);
      expect(await r.hgetall(keys.externalIds)).toEqual({ 'X-1': requisitionId(a), 'X-2': requisitionId(a) });
      expect(await store.seedForRecovery(a, 'hash-a', bodyOf(a))).toEqual({ status: 'exists', state: 'creating' });
    } finally {
      r.disconnect();
    }
  });

  it('refuses ids another requisition holds, names them and their holder, and writes nothing for it', async () => {
    const { r, keys, store } = fixture();
    const [base] = makeRequisitions(1, 'seed');
    const a = withIds(base!, 'PR-A', ['X-1', 'X-2']);
    const b = withIds(base!, 'PR-B', ['X-2', 'Y-1', 'X-1']);
    try {
      await store.seedForRecovery(a, 'hash-a', bodyOf(a));
      const before = await r.zrange(keys.requisitions, 0, -1);
      expect(await store.seedForRecovery(b, 'hash-b', bodyOf(b))).toEqual({
        status: 'conflict',
        conflicts: [
          { externalId: 'X-2', heldBy: requisitionId(a) },
          { externalId: 'X-1', heldBy: requisitionId(a) },
        ],
      });
      expect(await store.get(requisitionId(b))).toBeUndefined();
      expect(await r.exists(keys.key('posted', bodyOf(b).near))).toBe(0);
      // Y-1 was free, and stays free: the seed is all or nothing
      expect(await r.hget(keys.externalIds, 'Y-1')).toBeNull();
      expect(await r.zrange(keys.requisitions, 0, -1)).toEqual(before);
      // the holder is untouched
      expect((await store.get(requisitionId(a)))?.claimed).toEqual(['X-1', 'X-2']);
    } finally {
      r.disconnect();
    }
  });
});

/**
 * Writes that must outlive a failover. Under Sentinel, Redis replicates asynchronously: a primary that dies right
 * after acknowledging a claim takes it along, and the replica promoted in its place has never heard of it. Before an
 * action outside Redis that cannot be undone (a POST to the service, archiving a file whose create jobs were just
 * queued), the wait below makes sure REDIS_WAIT_REPLICAS replicas hold every write made so far (Redis WAIT).
 * WAIT counts from the calling connection's last write; the replication stream is one sequence, so a write of ours
 * (INCR of a mark) after the others (BullMQ's own connections included) makes WAIT cover them all.
 * It waits for the replicas the primary has connected, up to REDIS_WAIT_REPLICAS: a primary left without a replica
 * after a failover keeps working (a replica that died meanwhile cannot be waited for; the lost-state detection of
 * state-epoch.ts is the net for a second failure before a new replica attaches). REDIS_WAIT_REPLICAS=0 (a single
 * Redis) makes it a no-op.
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.ts';
import { ReplicationLagError } from '../core/index.ts';

/** Resolves when the replicas hold every write so far; throws ReplicationLagError (transient) otherwise. */
export type ReplicationWait = (what: string) => Promise<void>;

/** How long the number of connected replicas (ROLE) is trusted before it is asked again, ms. */
const ROLE_TTL_MS = 2_000;

export function replicationWait(o: {
  redis: Pick<Redis, 'incr' | 'wait' | 'call'>;
  keys: Pick<RedisKeys, 'key'>;
  replicas: number;
  timeoutMs: number;
}): ReplicationWait {
  let known: { at: number; replicas: number } | undefined;
  const connectedReplicas = async (): Promise<number> => {
    if (known && Date.now() - known.at < ROLE_TTL_MS) return known.replicas;
    const role = (await o.redis.call('ROLE')) as [string, number, unknown[]?];
    known = { at: Date.now(), replicas: role[0] === 'master' ? (role[2]?.length ?? 0) : 0 };
    return known.replicas;
  };
  return async (what) => {
    if (o.replicas <= 0) return;
    const wanted = Math.min(o.replicas, await connectedReplicas());
    await o.redis.incr(o.keys.key('replication-mark')); // a write to wait for
    if (wanted === 0) return;
    const acked = await o.redis.wait(wanted, o.timeoutMs);
    if (acked < wanted) {
      known = undefined; // a replica may have gone: ask again next time
      throw new ReplicationLagError(what, acked, wanted, o.timeoutMs);
    }
  };
}

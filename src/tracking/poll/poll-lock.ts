/**
 * One poll at a time per account: a Redis lock with a lease (POLL_LOCK_MS) renewed while the poll runs, released by
 * token (a poll that outlived its lease cannot release the next one's).
 */
import { randomUUID } from 'node:crypto';
import { LOCK_RELEASE, LOCK_RENEW, defineScript } from '../../redis/index.ts';
import type { TrackingContext } from '../context.ts';
import type { TrackingStore } from '../../rfqs/index.ts';

export interface PollLock {
  /** Stop renewing and release the lock (a failure is ignored: the lease runs out). */
  release(): Promise<void>;
}

/** Take the account's poll lock, or undefined when another poll holds it. */
export async function acquirePollLock(
  ctx: Pick<TrackingContext, 'redis' | 'config'>,
  store: TrackingStore,
): Promise<PollLock | undefined> {
  const renewLock = defineScript(ctx.redis, LOCK_RENEW);
  const releaseLock = defineScript(ctx.redis, LOCK_RELEASE);
  const lockToken = randomUUID();
  const leaseMs = ctx.config.POLL_LOCK_MS;
  if ((await ctx.redis.set(store.k.pollLock, lockToken, 'PX', leaseMs, 'NX')) !== 'OK') return undefined;
  const renew = setInterval(() => {
    renewLock([store.k.pollLock], [lockToken, String(leaseMs)]).catch(() => undefined);
  }, leaseMs / 4);
  renew.unref();
  return {
    async release() {
      clearInterval(renew);
      await releaseLock([store.k.pollLock], [lockToken]).catch(() => undefined);
    },
  };
}

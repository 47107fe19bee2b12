/** What the tracking code needs from the worker context (a WorkerContext satisfies it). */
import type { WorkerContext } from '../pipeline/context.ts';
import { TrackingStore } from './store.ts';

/**
 * `dialects` is optional: without it (tests of the tracking alone) the lists are read with the lower-case filter;
 * `notify` too: without it nobody is told.
 */
export type TrackingContext = Pick<
  WorkerContext,
  'config' | 'logger' | 'redis' | 'keys' | 'queues' | 'client' | 'authGate'
> &
  Partial<Pick<WorkerContext, 'dialects' | 'notify'>>;

const stores = new WeakMap<object, TrackingStore>();

/** One store per Redis client and namespace (cheap, but saves re-deriving keys on every call). */
export function trackingStore(ctx: Pick<TrackingContext, 'redis' | 'keys'>): TrackingStore {
  let byKeys = stores.get(ctx.redis);
  if (!byKeys || byKeys.k.tracked !== ctx.keys.trackedRfqs) {
    byKeys = new TrackingStore(ctx.redis, ctx.keys);
    stores.set(ctx.redis, byKeys);
  }
  return byKeys;
}

/** What the tracking code needs from the worker context (a WorkerContext satisfies it). */
import type { WorkerContext } from '../pipeline/context.ts';
import { TrackingStore } from './store.ts';

/**
 * `dialects` is optional: without it (tests of the tracking alone) the lists are read with the lower-case filter;
 * `notify` too: without it nobody is told.
 */
export type TrackingContext = Pick<
  WorkerContext,
  'config' | 'logger' | 'redis' | 'keys' | 'queues' | 'client' | 'limiter' | 'authGate'
> &
  Partial<Pick<WorkerContext, 'dialects' | 'notify'>>;

/** The tracking records of the context's account: a view over its Redis client and keys, cheap to make, holds nothing. */
export function trackingStore(ctx: Pick<TrackingContext, 'redis' | 'keys'>): TrackingStore {
  return new TrackingStore(ctx.redis, ctx.keys);
}

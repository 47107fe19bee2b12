/** What the tracking code needs from the worker context (a WorkerContext satisfies it). */
import type { WorkerContext } from '../worker/index.ts';
import type { WorkerConfig } from '../settings/index.ts';
import { TrackingStore } from './store.ts';

/** The settings the tracking reads: the poll's (and its webhook's), the comparison's outputs and the delays of its jobs. */
export type TrackingConfig = Pick<
  WorkerConfig,
  | 'POLL_MAX_MS'
  | 'POLL_CRON'
  | 'OVERVIEW_REFRESH_MS'
  | 'MISSING_POLLS_BEFORE_FLAG'
  | 'WEBHOOK_MIN_INTERVAL_MS'
  | 'WEBHOOK_CHECKS_PER_INTERVAL'
  | 'REQUISITION_CURRENCY'
  | 'TIME_ZONE'
  | 'QUOTATION_PRICE_BASIS'
  | 'PRINT_PAPER'
  | 'COMPARISON_SIGN_OFF'
  | 'PRICE_HISTORY_DAYS'
  | 'OUTBOX_DONE_FILES'
  | 'NOTIFY_MIN_QUOTATIONS'
  | 'JOB_BACKOFF_MS'
  | 'account'
> & { folders: Pick<WorkerConfig['folders'], 'outbox' | 'comparisons' | 'awards'> };

/**
 * `dialects` is optional: without it (tests of the tracking alone) the lists are read with the lower-case filter;
 * `notify` too: without it nobody is told; `erp` too: without it no ERP files are written.
 */
export type TrackingContext = Pick<
  WorkerContext,
  'logger' | 'redis' | 'keys' | 'queues' | 'client' | 'limiter' | 'authGate'
> & {
  config: TrackingConfig;
} & Partial<Pick<WorkerContext, 'dialects' | 'notify' | 'audit' | 'erp'>>;

/** The tracking records of the context's account: a view over its Redis client and keys, cheap to make, holds nothing. */
export function trackingStore(ctx: Pick<TrackingContext, 'redis' | 'keys'>): TrackingStore {
  return new TrackingStore(ctx.redis, ctx.keys);
}

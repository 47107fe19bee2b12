/** What the tracking code needs from the worker context (a WorkerContext satisfies it). */
import type { WorkerServices } from '../worker/index.ts';
import type { pollingSettings, SettingValues, webhookSettings } from '../settings/index.ts';

/** The settings the tracking reads: the poll's and its webhook's. */
export type TrackingConfig = Pick<
  SettingValues<typeof pollingSettings>,
  'POLL_MAX_MS' | 'POLL_LOCK_MS' | 'POLL_CRON' | 'MISSING_POLLS_BEFORE_FLAG'
> &
  Pick<SettingValues<typeof webhookSettings>, 'WEBHOOK_MIN_INTERVAL_MS' | 'WEBHOOK_CHECKS_PER_INTERVAL'>;

/** `dialects` is optional: without it (tests of the tracking alone) the lists are read with the lower-case filter. */
export type TrackingContext = Pick<WorkerServices, 'logger' | 'redis' | 'keys' | 'queues' | 'client'> & {
  config: TrackingConfig;
} & Partial<Pick<WorkerServices, 'dialects' | 'audit'>>;

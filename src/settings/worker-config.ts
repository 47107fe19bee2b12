/**
 * The settings the worker context carries, typed from their declarations in src/settings/ (where each default is
 * documented): what the job processors and the watchers beside them read, and nothing else. app/ parses the
 * configuration and passes it (a Config fits); what only the context's assembly reads (the clients' time-outs, the
 * token, the notification channels, the key prefix: AssemblyConfig in app/runtime/worker-context.ts) stays in app/. Each
 * module below names its own part (IntakeConfig, TrackingConfig...), so a new setting is read where it is declared
 * and passed down, never looked up.
 */
import type { SettingValues } from './fields.ts';
import type { folderSettings, Folders } from './folders.ts';
import type { jobSettings } from './jobs.ts';
import type { notifySettings } from './notify.ts';
import type { operationsSettings } from './operations.ts';
import type { outputSettings } from './outputs.ts';
import type { pollingSettings } from './polling.ts';
import type { reconcileSettings } from './reconcile.ts';
import type { serviceSettings } from './service.ts';
import type { webhookSettings } from './webhooks.ts';
import type { redisSettings } from './redis.ts';
import type { vendorSettings } from './vendors.ts';
import type { erpSettings } from './erp.ts';

export type WorkerConfig = { account: string; folders: Folders } & Pick<
  // intake's (IntakeConfig) and ingest's (IngestRunConfig) settings
  SettingValues<typeof folderSettings>,
  | 'INBOX_DONE_SUFFIX'
  | 'WATCH_POLLING'
  | 'WATCH_INTERVAL_MS'
  | 'FILE_STABLE_MS'
  | 'SWEEP_CRON'
  | 'MAX_FILE_BYTES'
  | 'MAX_XLSX_UNCOMPRESSED_BYTES'
  | 'MAX_XLSX_ENTRIES'
  | 'MAX_IN_MEMORY_READ_BYTES'
> &
  Pick<SettingValues<typeof vendorSettings>, 'CATEGORY_CHECK' | 'CATEGORY_CHECK_WAIT_MS'> &
  Pick<SettingValues<typeof redisSettings>, 'REDIS_WAIT_REPLICAS' | 'REDIS_WAIT_TIMEOUT_MS'> &
  // the create protocol's POST lease covers the call's deadline
  Pick<
    SettingValues<typeof serviceSettings>,
    'SOURCING_CALL_DEADLINE_MS' | 'RATE_LIMIT_PER_SECOND' | 'PUSH_HEADER_CHANGES'
  > &
  Pick<
    SettingValues<typeof folderSettings>,
    'RETENTION_DAYS' | 'OUTBOX_RETENTION_DAYS' | 'RETENTION_CRON' | 'OUTBOX_DONE_FILES'
  > &
  Pick<
    SettingValues<typeof jobSettings>,
    | 'CONCURRENCY_INGEST'
    | 'CONCURRENCY_CREATE'
    | 'CONCURRENCY_QUOTATIONS'
    | 'CONCURRENCY_COMPARISON'
    | 'JOB_BACKOFF_MS'
    | 'JOB_LOCK_MS'
    | 'STALLED_CHECK_MS'
    | 'JOB_MAX_STALLED'
  > &
  Pick<
    SettingValues<typeof notifySettings>,
    | 'NOTIFY_CONCURRENCY'
    | 'NOTIFY_MIN_QUOTATIONS'
    | 'NOTIFY_POLL_STUCK_MS'
    | 'NOTIFY_UNREACHABLE_MS'
    | 'NOTIFY_CHECK_MS'
  > &
  Pick<SettingValues<typeof operationsSettings>, 'SHUTDOWN_TIMEOUT_MS'> &
  Pick<SettingValues<typeof webhookSettings>, 'WEBHOOK_MIN_INTERVAL_MS' | 'WEBHOOK_CHECKS_PER_INTERVAL'> &
  SettingValues<typeof outputSettings> &
  // the ERP's purchase-order files (src/erp/): the profiles, the vendor cross-reference, the constants they name
  SettingValues<typeof erpSettings> &
  SettingValues<typeof pollingSettings> &
  SettingValues<typeof reconcileSettings>;

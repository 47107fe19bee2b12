/**
 * The settings the worker reads, typed from their declarations in src/settings/ (where each default is documented):
 * what the context's assembly, the job processors and the watchers beside them use, and nothing else. app/ parses
 * the configuration and passes it (a Config fits); each module below names its own part (IntakeConfig,
 * NotifierConfig...), so a new setting is read where it is declared and passed down, never looked up.
 */
import type { SettingValues } from '../settings/fields.ts';
import type { folderSettings } from '../settings/folders.ts';
import type { jobSettings } from '../settings/jobs.ts';
import type { notifySettings } from '../settings/notify.ts';
import type { operationsSettings } from '../settings/operations.ts';
import type { outputSettings } from '../settings/outputs.ts';
import type { pollingSettings } from '../settings/polling.ts';
import type { reconcileSettings } from '../settings/reconcile.ts';
import type { redisSettings } from '../settings/redis.ts';
import type { serviceSettings } from '../settings/service.ts';
import type { DialectSettings } from '../sourcing/dialect.ts';
import type { IntakeConfig } from '../intake/inbox-intake.ts';
import type { IngestRunConfig } from '../intake/ingest-run.ts';
import type { NotifierConfig } from '../notify/notify-settings.ts';

/** The sourcing client's time-outs, retries and paging (src/settings/service.ts). */
export type SourcingClientConfig = Pick<
  SettingValues<typeof serviceSettings>,
  | 'SOURCING_CONNECT_TIMEOUT_MS'
  | 'SOURCING_HEADERS_TIMEOUT_MS'
  | 'SOURCING_BODY_TIMEOUT_MS'
  | 'SOURCING_CALL_DEADLINE_MS'
  | 'SOURCING_GET_RETRIES'
  | 'SOURCING_CONNECTIONS'
  | 'SOURCING_MAX_PAGES'
  | 'SOURCING_PAGE_CONCURRENCY'
>;

export type WorkerConfig = IntakeConfig &
  IngestRunConfig &
  NotifierConfig &
  SourcingClientConfig &
  DialectSettings &
  Pick<SettingValues<typeof serviceSettings>, 'SOURCING_TOKEN_FILE' | 'RATE_LIMIT_PER_SECOND'> &
  Pick<SettingValues<typeof redisSettings>, 'REDIS_PREFIX'> &
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
    | 'JOB_ATTEMPTS'
    | 'JOB_BACKOFF_MS'
    | 'JOB_LOCK_MS'
    | 'STALLED_CHECK_MS'
    | 'JOB_MAX_STALLED'
    | 'AUTH_CHECK_MS'
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
  SettingValues<typeof outputSettings> &
  SettingValues<typeof pollingSettings> &
  SettingValues<typeof reconcileSettings> & {
    /** The bearer token as read at start (SOURCING_TOKEN or SOURCING_TOKEN_FILE); undefined for the sandbox. */
    token: string | undefined;
  };

/**
 * The settings of a worker under test, one place: `pipelineEnvVars` (an in-process context for the creation proofs:
 * short time-outs so ambiguous answers and crashes resolve quickly) with `pipelineConfig` and `pipelineContext`, and
 * `serviceEnv` (a whole `rfq-sync worker`: short locks, sweeps and polls every 2 s).
 */
import { join } from 'node:path';
import { loadConfig, PACKAGE_ROOT, type Config } from '../../src/settings/config.ts';
import { silentLogger, type Logger } from '../../src/core/logger.ts';
import { createWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import type { DataDir } from './files.ts';

export interface PipelineEnv {
  redisUrl: string;
  baseUrl: string;
  token: string;
  prefix: string;
  account?: string;
  /** Data folder. Default: a shared folder under /tmp (contexts that never touch files). */
  dir?: string;
  extra?: Record<string, string>;
}

/** Environment of a creation-proof worker: short time-outs so ambiguous answers and crashes resolve quickly. */
export function pipelineEnvVars(e: PipelineEnv): Record<string, string> {
  return {
    SOURCING_BASE_URL: e.baseUrl,
    ...(e.extra?.SOURCING_TOKEN_FILE ? {} : { SOURCING_TOKEN: e.token }),
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: e.prefix,
    SOURCING_ACCOUNT: e.account ?? 'acct',
    SOURCING_CONNECT_TIMEOUT_MS: '1000',
    SOURCING_HEADERS_TIMEOUT_MS: '1500',
    SOURCING_BODY_TIMEOUT_MS: '1500',
    // a lost answer is proven absent only from lists read after its POST's deadline (plus the settle time): short
    SOURCING_CALL_DEADLINE_MS: '2500',
    SOURCING_GET_RETRIES: '2',
    SOURCING_PAGE_CONCURRENCY: '1',
    // the sandbox lists a new RFQ at once unless told to lag: the lists settle as soon as the lag measured allows
    SOURCING_LIST_SETTLE_MS: '200',
    RATE_LIMIT_PER_SECOND: '1000',
    CONCURRENCY_CREATE: '8',
    JOB_ATTEMPTS: '50',
    JOB_BACKOFF_MS: '100',
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    RFQ_SYNC_DIR: e.dir ?? '/tmp/rfq-sync-pipeline-tests',
    ...e.extra,
  };
}

export function pipelineConfig(e: PipelineEnv): Config {
  return loadConfig(pipelineEnvVars(e) as NodeJS.ProcessEnv);
}

export async function pipelineContext(e: PipelineEnv, logger: Logger = silentLogger): Promise<AppContext> {
  const config = pipelineConfig(e);
  return createWorkerContext(config, logger, { redisUrl: e.redisUrl, baseUrl: e.baseUrl, authCheckMs: 200 });
}

export interface ServiceEnv {
  redisUrl: string;
  baseUrl: string;
  token: string;
  prefix: string;
  data: DataDir;
  extra?: Record<string, string>;
}

/**
 * Environment of a whole worker (every queue, the watched inbox, the poll schedule) for the hardening suite: short
 * locks and stalled checks so a killed worker's jobs come back quickly, sweeps and polls every 2 s.
 */
export function serviceEnv(e: ServiceEnv): Record<string, string> {
  return {
    SOURCING_BASE_URL: e.baseUrl,
    SOURCING_TOKEN: e.token,
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: e.prefix,
    SOURCING_ACCOUNT: 'hardening',
    RFQ_SYNC_DIR: e.data.root,
    MAPPINGS_DIR: join(PACKAGE_ROOT, 'mappings'),
    SOURCING_CONNECT_TIMEOUT_MS: '1000',
    SOURCING_HEADERS_TIMEOUT_MS: '2000',
    SOURCING_BODY_TIMEOUT_MS: '2000',
    SOURCING_CALL_DEADLINE_MS: '5000',
    SOURCING_GET_RETRIES: '2',
    SOURCING_LIST_SETTLE_MS: '200',
    // the sandbox lists a new RFQ at once: a walk before the list lag is measured (after Redis lost its state, or
    // before a create of ours was answered) need not wait the 30 s that cover a real service's search index
    SOURCING_LIST_SETTLE_UNMEASURED_MS: '2000',
    RATE_LIMIT_PER_SECOND: '500',
    CONCURRENCY_CREATE: '8',
    JOB_ATTEMPTS: '1000',
    JOB_BACKOFF_MS: '200',
    JOB_LOCK_MS: '3000',
    STALLED_CHECK_MS: '1500',
    // a worker killed mid-poll holds the poll lock this long (2 minutes by default: the soaks waited it out)
    POLL_LOCK_MS: '5000',
    JOB_MAX_STALLED: '1000',
    AUTH_CHECK_MS: '500',
    FILE_STABLE_MS: '400',
    WATCH_POLLING: 'true',
    WATCH_INTERVAL_MS: '200',
    SWEEP_CRON: '*/2 * * * * *',
    POLL_CRON: '*/2 * * * * *',
    HTTP_PORT: '0',
    LOG_LEVEL: 'info',
    ...e.extra,
  };
}

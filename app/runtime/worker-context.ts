/**
 * The worker context's assembly: built once per process, here in app/, and closed here. Jobs and src/ modules receive
 * it (WorkerContext: jobs/worker.ts) and name the part of it they read; what only app/ needs to run and close the workers
 * (BullMQ's connection and prefix) stays on the AppContext.
 * Three kinds of Redis connection, as BullMQ wants them:
 *   - `redis`: our own keys (idempotency, tracking, ledger), fail-fast (commands error while Redis is down, the
 *     job fails its attempt and is retried with back-off);
 *   - `connection`: options for BullMQ Workers, `maxRetriesPerRequest: null` (BullMQ's requirement);
 *   - the Queues open their own clients from the same options.
 */
import { Redis } from 'ioredis';
import type {
  SettingValues,
  jobSettings,
  folderSettings,
  redisSettings,
  serviceSettings,
} from '../../src/settings/index.ts';
import type { DialectSettings } from '../../src/sourcing/index.ts';
import { type NotifierConfig, createNotifier } from '../../src/notify/index.ts';
import type { WorkerConfig, WorkerContext } from '../../jobs/index.ts';
import type { PollHealthConfig } from './notify-watch.ts';
import type { Logger } from '../../src/core/index.ts';
import { createSourcingClient, type SourcingClientOptions } from '../../src/sourcing/client/index.ts';
import {
  createAuthGate,
  firstPageProbe,
  createDialectSource,
  createRateLimiter,
  createTokenSource,
  tokenFingerprint,
  type TokenSource,
  listingClientOptions,
  rateLimitHooks,
  sourcingClientOptions,
  type SourcingClientConfig,
} from '../../src/account/index.ts';
import {
  createStateEpoch,
  bullPrefix as makeBullPrefix,
  createQueues,
  type RedisConnectionOptions,
  checkRedis,
  redisKeys,
  registerAccount,
  redisOptionsFromUrl,
} from '../../src/redis/index.ts';
import { auditUnwritable, redisStateLost, tokenRefused } from '../../src/notify/events/index.ts';
import { type AuditLog, createAuditLog, recordAuditFault } from '../../src/audit/index.ts';
import { type ErpConfig, loadErpOutputs } from '../../src/erp/index.ts';
import { auditIdentity } from '../../src/tracking/index.ts';
import type { WorkerConnection } from '../../jobs/index.ts';

/**
 * The settings only the assembly reads, beside those the context carries (WorkerConfig): the clients' time-outs and
 * paging, the token, the notification channels and routes, the dialect's settings, the key prefix, the jobs'
 * attempts and the auth gate's check, and the ERP outputs' (loaded once into the context's `erp`).
 */
export type AssemblyConfig = WorkerConfig &
  PollHealthConfig &
  ErpConfig &
  SourcingClientConfig &
  NotifierConfig &
  DialectSettings &
  Pick<SettingValues<typeof serviceSettings>, 'SOURCING_TOKEN_FILE'> &
  Pick<SettingValues<typeof redisSettings>, 'REDIS_PREFIX'> &
  Pick<SettingValues<typeof jobSettings>, 'JOB_ATTEMPTS' | 'AUTH_CHECK_MS'> &
  Pick<SettingValues<typeof folderSettings>, 'AUDIT_RETENTION_DAYS'> & {
    /** The bearer token as read at start (SOURCING_TOKEN or SOURCING_TOKEN_FILE); undefined for the sandbox. */
    token: string | undefined;
  };

/**
 * The worker context as app/ holds it: with what only app/ needs to run the workers on it (BullMQ's connection and
 * prefix, for startWorker), the token source itself (jobs see its fingerprint only) and the settings as the assembly
 * read them.
 */
export interface AppContext extends WorkerContext, WorkerConnection {
  config: AssemblyConfig;
  tokens: TokenSource;
}

export interface WorkerContextOptions {
  redisUrl: string;
  baseUrl: string;
  /** Token provider; default SOURCING_TOKEN / SOURCING_TOKEN_FILE of the config (re-read every 2 s). */
  token?: () => string;
  /** The token source itself (its file's problems are reported); wins over `token`. */
  tokens?: TokenSource;
  /** Metrics hook of both sourcing clients, called once per HTTP attempt. */
  onCall?: SourcingClientOptions['onCall'];
  /** Skip the start-up Redis checks (only for commands that do not write, e.g. `status`). Default false. */
  skipRedisChecks?: boolean;
  /** How often the auth gate checks for a replaced token, ms. Default AUTH_CHECK_MS of the config. */
  authCheckMs?: number;
}

export async function createWorkerContext(
  config: AssemblyConfig,
  logger: Logger,
  opts: WorkerContextOptions,
): Promise<AppContext> {
  // The ERP outputs first: a profile or setting they lack stops the start before anything connects.
  const erp = await loadErpOutputs(config);
  const ctx = await connectWorkerContext(config, logger, opts);
  return erp ? { ...ctx, erp } : ctx;
}

async function connectWorkerContext(
  config: AssemblyConfig,
  logger: Logger,
  opts: WorkerContextOptions,
): Promise<AppContext> {
  const base = redisOptionsFromUrl(opts.redisUrl);
  // No enableAutoPipelining: its callback loop throws (uncaught) when a connection closes mid-batch, a script defined
  // after an auto-pipeline has started hangs it (ioredis #1931; ours are defined lazily), and it measured no faster.
  const redis = new Redis({ ...base, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', () => undefined); // reconnects by itself; commands report the failure to their caller
  const cleanup: Array<() => Promise<unknown>> = [async () => redis.quit().catch(() => redis.disconnect())];
  try {
    if (!opts.skipRedisChecks) await checkRedis(redis, logger);
    await registerAccount(redis, config.REDIS_PREFIX, config.account);
    const keys = redisKeys(config.REDIS_PREFIX, config.account);
    // ioredis options are what BullMQ passes on to ioredis; its own RedisOptions type is a looser copy of them.
    const connection = { ...base, maxRetriesPerRequest: null } as RedisConnectionOptions;
    const bullPrefix = makeBullPrefix(config.REDIS_PREFIX, config.account);
    const queues = createQueues(connection, bullPrefix, {
      attempts: config.JOB_ATTEMPTS,
      backoffMs: config.JOB_BACKOFF_MS,
    });
    cleanup.push(() => queues.close());
    const notify = createNotifier({ config, redis, keys, queue: queues.notify, logger });
    cleanup.push(() => notify.close());
    // A notice that cannot be queued (Redis down) must not break the pause it tells of: logged instead.
    const tell = (what: string) => (err: unknown) => logger.warn({ err }, `notify: could not queue the ${what} notice`);
    const given = opts.token;
    const tokens: TokenSource =
      opts.tokens ??
      (given
        ? { get: given, refresh: given, fingerprint: () => tokenFingerprint(given()) }
        : createTokenSource({ token: config.token, tokenFile: config.SOURCING_TOKEN_FILE }));
    const limiter = createRateLimiter(redis, keys, { perSecond: config.RATE_LIMIT_PER_SECOND });
    const clientOptions = sourcingClientOptions(config, {
      baseUrl: opts.baseUrl,
      getToken: tokens.get,
      logger,
      onCall: opts.onCall,
      ...rateLimitHooks(limiter),
    });
    const client = createSourcingClient(clientOptions);
    cleanup.push(() => client.close());
    const listingClient = createSourcingClient(listingClientOptions(clientOptions, config));
    cleanup.push(() => listingClient.close());
    const authGate = await createAuthGate({
      redis,
      keys,
      queues: [queues.createRfq, queues.poll],
      promote: [queues.createRfq, queues.poll, queues.quotations],
      tokens,
      logger,
      probe: () => firstPageProbe(listingClient),
      checkMs: opts.authCheckMs ?? config.AUTH_CHECK_MS,
      onPaused: (reason, since) => notify.emit(tokenRefused.event({ reason, since })).catch(tell('token refused')),
    });
    const dialects = createDialectSource({ redis, keys, port: listingClient, settings: config, logger });
    const state = createStateEpoch({
      redis,
      keys,
      dataDir: config.folders.root,
      account: config.account,
      logger,
      pauseCreation: async () => {
        await queues.createRfq.pause();
        const lost = state.lost();
        if (lost) await notify.emit(redisStateLost.event(lost)).catch(tell('Redis state lost'));
      },
      resumeCreation: () => queues.createRfq.resume(),
    });
    const audit = auditLogOf(config, { redis, keys, notify, logger }, tell);
    cleanup.push(async () => audit.close());
    return {
      config,
      logger,
      redis,
      audit,
      keys,
      connection,
      queues,
      client,
      listingClient,
      limiter,
      authGate,
      dialects,
      state,
      tokens,
      bullPrefix,
      notify,
    };
  } catch (err) {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    throw err;
  }
}

/**
 * The audit log of this worker, its lines completed from Redis. A log that cannot be written stops every step: IT is
 * told, and `status` shows it from any host.
 */
function auditLogOf(
  config: AssemblyConfig,
  c: Pick<WorkerContext, 'redis' | 'keys' | 'notify' | 'logger'>,
  tell: (what: string) => (err: unknown) => void,
): AuditLog {
  const audit: AuditLog = createAuditLog({
    root: config.folders.root,
    retentionDays: config.AUDIT_RETENTION_DAYS,
    account: config.account,
    enrich: auditIdentity(c),
    logger: c.logger,
    onFault: (fault, was) => {
      void recordAuditFault(c, audit.host, fault).catch(tell('audit fault record'));
      if (fault && !was) void c.notify.emit(auditUnwritable.event(fault)).catch(tell('audit log unwritable'));
    },
  });
  return audit;
}

export async function closeWorkerContext(
  ctx: Pick<WorkerContext, 'authGate' | 'state' | 'queues' | 'client' | 'listingClient' | 'notify' | 'redis' | 'audit'>,
): Promise<void> {
  ctx.authGate.close();
  ctx.audit.close();
  ctx.state.stop();
  await Promise.allSettled([ctx.queues.close(), ctx.client.close(), ctx.listingClient.close(), ctx.notify.close()]);
  await ctx.redis.quit().catch(() => ctx.redis.disconnect());
}

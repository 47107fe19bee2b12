/**
 * The worker context: what every job processor and CLI command receives. Built once per process.
 * Three kinds of Redis connection, as BullMQ wants them:
 *   - `redis`: our own keys (idempotency, tracking, ledger), fail-fast (commands error while Redis is down, the
 *     job fails its attempt and is retried with back-off);
 *   - `connection`: options for BullMQ Workers, `maxRetriesPerRequest: null` (BullMQ's requirement);
 *   - the Queues open their own clients from the same options.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { SourcingClientConfig, WorkerConfig } from './worker-config.ts';
import type { Logger } from '../logger.ts';
import { createSourcingClient, type SourcingClient, type SourcingClientOptions } from '../sourcing/client.ts';
import { createAuthGate, type AuthGate } from '../creation/auth-gate.ts';
import { firstPageProbe } from '../creation/auth-recheck.ts';
import { createStateEpoch, type StateEpoch } from '../redis/state-epoch.ts';
import { createDialectSource, type DialectSource } from '../creation/dialect-store.ts';
import {
  bullPrefix as makeBullPrefix,
  createQueues,
  type Queues,
  type RedisConnectionOptions,
} from '../redis/queues.ts';
import { createRateLimiter, type RateLimiter } from '../creation/rate-limiter.ts';
import { checkRedis } from '../redis/redis-checks.ts';
import { redisKeys, type RedisKeys } from '../redis/redis-keys.ts';
import { registerAccount } from '../redis/accounts.ts';
import { createTokenSource, tokenFingerprint, type TokenSource } from '../creation/token-source.ts';
import { createNotifier, type Notifier } from '../notify/notifier.ts';
import { redisStateLost, tokenRefused } from '../notify/events/index.ts';

export interface WorkerContext {
  /** The settings the worker reads (worker-config.ts), as app/ parsed them. */
  config: WorkerConfig;
  logger: Logger;
  /** ioredis client for our own keys (idempotency commands are defined on it by the idempotency store). */
  redis: Redis;
  keys: RedisKeys;
  /** For BullMQ Workers (maxRetriesPerRequest null). */
  connection: RedisConnectionOptions;
  queues: Queues;
  client: SourcingClient;
  /**
   * A second client for the reconcile search of create-rfq: one page at a time, a failed page retried in place
   * (GET retries with back-off; a ~80-page search must not restart for one 5xx). Like `client`, every call takes a
   * permit of `limiter` and every Retry-After holds everyone off (rateLimitHooks).
   */
  listingClient: SourcingClient;
  /**
   * Calls per second to the service, shared by every worker (RATE_LIMIT_PER_SECOND), and the Retry-After hold-off.
   * Both clients take their permits themselves, except a create's: the create protocol takes it (rateLimitHooks).
   */
  limiter: RateLimiter;
  authGate: AuthGate;
  /** The account's dialect (filter form, unfiltered list, echo, detail/edit calls), detected once and shared. */
  dialects: DialectSource;
  /** Lost Redis state, detected (state-epoch.ts); checked only where a pipeline runs against a real Redis. */
  state: StateEpoch;
  baseUrl: string;
  tokens: TokenSource;
  bullPrefix: string;
  /** Tells people (NOTIFY_ROUTES): events go on the notify queue, never waiting for a mail server. */
  notify: Notifier;
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

/**
 * ioredis options from a redis:// or rediss:// URL (TLS for rediss), or from the redis-sentinel:// form that
 * REDIS_SENTINELS becomes (src/config-redis.ts sentinelUrl): the sentinels are asked for the primary, and asked again
 * after a failover.
 */
export function redisOptionsFromUrl(url: string, extra: RedisOptions = {}): RedisOptions {
  const u = new URL(url);
  if (u.protocol === 'redis-sentinel:') {
    const sentinels = (u.searchParams.get('sentinels') ?? '').split(',').map((hp) => {
      const i = hp.lastIndexOf(':');
      return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
    });
    const sentinelPassword = u.searchParams.get('sentinelPassword');
    return {
      sentinels,
      name: u.hostname,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      ...(sentinelPassword ? { sentinelPassword } : {}),
      // a failover takes seconds: keep asking the sentinels instead of giving up
      sentinelRetryStrategy: (times: number) => Math.min(times * 200, 2_000),
      ...extra,
    };
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    ...extra,
  };
}

/**
 * How long a page of a listing waits for its permit before ThrottledError. A listing part-way through just waits
 * (bounded); a single call (create, quotations) waits the limiter's default (2 s) and its job is delayed beyond.
 */
export const LISTING_PERMIT_WAIT_MS = 30_000;
const LISTINGS = new Set(['listRfqs', 'listVendors']);

/**
 * Every HTTP attempt of a client takes one permit of the shared limiter, except a create: the create protocol takes
 * its permit with the claim (claim-6.lua), so the POST goes out the moment its lease allows (a POST is never
 * retried, so that is its only attempt). Every Retry-After holds everyone off.
 */
export function rateLimitHooks(limiter: RateLimiter): Pick<SourcingClientOptions, 'beforeRequest' | 'onRetryAfter'> {
  return {
    beforeRequest: async (operation) => {
      if (operation === 'createRfq') return;
      await limiter.acquire(LISTINGS.has(operation) ? { maxWaitMs: LISTING_PERMIT_WAIT_MS } : {});
    },
    onRetryAfter: (ms) => limiter.holdOff(ms),
  };
}

/** Options of the sourcing client from the configuration: the one place they are listed. */
export function sourcingClientOptions(
  config: SourcingClientConfig,
  o: Pick<SourcingClientOptions, 'baseUrl' | 'getToken' | 'logger' | 'onCall' | 'beforeRequest' | 'onRetryAfter'>,
): SourcingClientOptions {
  return {
    ...o,
    connectTimeoutMs: config.SOURCING_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.SOURCING_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: config.SOURCING_BODY_TIMEOUT_MS,
    callDeadlineMs: config.SOURCING_CALL_DEADLINE_MS,
    getRetries: config.SOURCING_GET_RETRIES,
    connections: config.SOURCING_CONNECTIONS,
    maxPages: config.SOURCING_MAX_PAGES,
    pageConcurrency: config.SOURCING_PAGE_CONCURRENCY,
  };
}

/** The listing client's options (see WorkerContext.listingClient): the GET retries of `base` (per page), one page at a time. */
export function listingClientOptions(
  base: SourcingClientOptions,
  config: Pick<SourcingClientConfig, 'SOURCING_CONNECTIONS'>,
): SourcingClientOptions {
  return { ...base, pageConcurrency: 1, connections: Math.min(4, config.SOURCING_CONNECTIONS) };
}

export async function createWorkerContext(
  config: WorkerConfig,
  logger: Logger,
  opts: WorkerContextOptions,
): Promise<WorkerContext> {
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
    const notify = createNotifier({ config, redis, keyOf: keys.key, queue: queues.notify, logger });
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
    return {
      config,
      logger,
      redis,
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
      baseUrl: opts.baseUrl,
    };
  } catch (err) {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    throw err;
  }
}

export async function closeWorkerContext(ctx: WorkerContext): Promise<void> {
  ctx.authGate.close();
  ctx.state.stop();
  await Promise.allSettled([ctx.queues.close(), ctx.client.close(), ctx.listingClient.close(), ctx.notify.close()]);
  await ctx.redis.quit().catch(() => ctx.redis.disconnect());
}

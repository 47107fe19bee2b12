/**
 * What the operator commands share: a context on the installation's Redis (withReadContext: Redis only, no sourcing
 * client and no auth gate; withContext: the whole worker context). They never start a sandbox or a private Redis:
 * without REDIS_URL there is no installation to act on.
 */
import { Redis } from 'ioredis';
import { displayRedisUrl, type Config } from '../../src/settings/index.ts';
import { ConfigError, redisUnreachable, type Logger } from '../../src/core/index.ts';
import { readAuthPause, type AuthPauseStatus } from '../../src/account/index.ts';
import type { WorkerConfig, WorkerContext } from '../../jobs/index.ts';
import { closeWorkerContext, openContext, resolveRuntime } from '../runtime/index.ts';
import {
  redisOptionsFromUrl,
  bullPrefix,
  createQueues,
  type Queues,
  type RedisConnectionOptions,
  redisKeys,
  type RedisKeys,
  accountsInRedis,
} from '../../src/redis/index.ts';

export interface ReadContext {
  config: WorkerConfig;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  queues: Queues;
  authGate: { status(): Promise<AuthPauseStatus> };
}

/** Open a read context on REDIS_URL, run `fn`, close it. */
export async function withReadContext<T>(
  given: Config,
  logger: Logger,
  command: string,
  fn: (ctx: ReadContext) => Promise<T>,
): Promise<T> {
  let config = given;
  if (!config.REDIS_URL)
    throw new ConfigError([`REDIS_URL: required for \`${command}\` (it reads the queues and records in your Redis)`]);
  const base = redisOptionsFromUrl(config.REDIS_URL);
  const redis = new Redis({
    ...base,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (n) => (n > 3 ? null : 200 * n),
  });
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await redis.ping().catch((err: Error) => {
      throw redisUnreachable(displayRedisUrl(config.REDIS_URL!), (lastError ?? err).message);
    });
    if (!config.accountGiven) {
      const account = await onlyAccount(redis, config.REDIS_PREFIX);
      process.stderr.write(
        `rfq-sync: account ${account} (the only one in Redis; --account or SOURCING_ACCOUNT to choose)\n`,
      );
      config = { ...config, account, accountGiven: true };
    }
  } catch (err) {
    await redis.quit().catch(() => redis.disconnect());
    throw err;
  }
  const keys = redisKeys(config.REDIS_PREFIX, config.account);
  const connection = { ...base, maxRetriesPerRequest: 1 } as RedisConnectionOptions;
  const queues = createQueues(connection, bullPrefix(config.REDIS_PREFIX, config.account), {
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
  });
  const authGate = { status: () => readAuthPause(redis, keys) };
  try {
    return await fn({ config, logger, redis, keys, queues, authGate });
  } finally {
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * The account when none was given (no SOURCING_ACCOUNT, no SOURCING_BASE_URL): the one whose keys Redis holds. The
 * workers register theirs (keys: `<prefix>:accounts`); installations older than that are found by their keys.
 * None or several: a configuration error naming them.
 */
async function onlyAccount(redis: Redis, prefix: string): Promise<string> {
  const accounts = await accountsInRedis(redis, prefix);
  if (accounts.length === 1) return accounts[0]!;
  throw new ConfigError([
    accounts.length === 0
      ? `SOURCING_ACCOUNT: no account in Redis under prefix ${prefix} yet; set SOURCING_ACCOUNT (or SOURCING_BASE_URL) or --account`
      : `SOURCING_ACCOUNT: Redis holds several accounts (${accounts.join(', ')}): choose one with --account or SOURCING_ACCOUNT`,
  ]);
}

/** Open a full context (Redis and the sourcing service, no embedded fallback), run `fn`, close everything. */
export async function withContext<T>(
  config: Config,
  logger: Logger,
  command: string,
  fn: (ctx: WorkerContext) => Promise<T>,
): Promise<T> {
  const runtime = await resolveRuntime(config, logger, { allowEmbedded: false, command });
  try {
    const ctx = await openContext(config, logger, runtime);
    try {
      return await fn(ctx);
    } finally {
      await closeWorkerContext(ctx);
    }
  } finally {
    await runtime.stop();
  }
}

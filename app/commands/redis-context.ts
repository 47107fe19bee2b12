/**
 * A connection to the installation's Redis for a command that only reads records (`trace`; withReadContext adds the
 * queues): REDIS_URL, pinged first (an unreachable Redis is E_REDIS_DOWN, said in one line), and the account, when
 * none was given, the only one Redis holds. Light on purpose: no queue, no worker context, so `trace` starts fast.
 */
import { Redis } from 'ioredis';
import { displayRedisUrl, type Config } from '../../src/settings/index.ts';
import { ConfigError, redisUnreachable, type Logger } from '../../src/core/index.ts';
import { redisOptionsFromUrl, redisKeys, type RedisKeys, accountsInRedis } from '../../src/redis/index.ts';

export interface RedisContext {
  config: Config;
  redis: Redis;
  keys: RedisKeys;
}

/** Open a connection to REDIS_URL for `command`, run `fn`, close it. */
export async function withRedis<T>(
  given: Config,
  _logger: Logger,
  command: string,
  fn: (ctx: RedisContext) => Promise<T>,
): Promise<T> {
  let config = given;
  if (!config.REDIS_URL)
    throw new ConfigError([`REDIS_URL: required for \`${command}\` (it reads the queues and records in your Redis)`]);
  const redis = new Redis({
    ...redisOptionsFromUrl(config.REDIS_URL),
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
    return await fn({ config, redis, keys: redisKeys(config.REDIS_PREFIX, config.account) });
  } finally {
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

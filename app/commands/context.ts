/**
 * What the operator commands share: a context on the installation's Redis (withReadContext: Redis only, no sourcing
 * client and no auth gate; withContext: the whole worker context). They never start a sandbox or a private Redis:
 * without REDIS_URL there is no installation to act on.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { readAuthPause, type AuthPauseStatus } from '../../src/account/index.ts';
import type { WorkerConfig, WorkerContext } from '../../jobs/index.ts';
import { closeWorkerContext, openContext, resolveRuntime } from '../runtime/index.ts';
import {
  redisOptionsFromUrl,
  bullPrefix,
  createQueues,
  type Queues,
  type RedisConnectionOptions,
  type RedisKeys,
} from '../../src/redis/index.ts';
import { withRedis } from './redis-context.ts';

export interface ReadContext {
  config: WorkerConfig;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  queues: Queues;
  authGate: { status(): Promise<AuthPauseStatus> };
}

/** Open a read context on REDIS_URL (withRedis, with the queues), run `fn`, close it. */
export async function withReadContext<T>(
  given: Config,
  logger: Logger,
  command: string,
  fn: (ctx: ReadContext) => Promise<T>,
): Promise<T> {
  return withRedis(given, logger, command, async ({ config, redis, keys }) => {
    const connection = { ...redisOptionsFromUrl(config.REDIS_URL!), maxRetriesPerRequest: 1 } as RedisConnectionOptions;
    const queues = createQueues(connection, bullPrefix(config.REDIS_PREFIX, config.account), {
      attempts: config.JOB_ATTEMPTS,
      backoffMs: config.JOB_BACKOFF_MS,
    });
    const authGate = { status: () => readAuthPause(redis, keys) };
    try {
      return await fn({ config, logger, redis, keys, queues, authGate });
    } finally {
      await queues.close();
    }
  });
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

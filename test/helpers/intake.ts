/**
 * Intake without a worker: a minimal intake context on a real Redis (`testIntake`, `testConfig`) and, per test, intake
 * contexts and inbox watchers closed after it with their folders removed (`useIntakes`).
 */
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/settings/config.ts';
import type { IntakeContext } from '../../src/intake/inbox-intake.ts';
import { startInboxWatcher, type InboxWatcher } from '../../src/intake/inbox-watcher.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { redisOptionsFromUrl } from '../../src/redis/redis-options.ts';
import { bullPrefix, createQueues, type Queues } from '../../src/redis/queues.ts';
import { redisKeys, type RedisKeys } from '../../src/redis/redis-keys.ts';
import { useCleanups } from './cleanups.ts';
import { freshPrefix } from './redis.ts';
import { tempDir } from './temp-dir.ts';

export interface TestIntake extends IntakeContext {
  config: Config;
  keys: RedisKeys;
  queues: Queues;
  dir: string;
  close(): Promise<void>;
}

export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ RFQ_SYNC_DIR: dir, REDIS_PREFIX: freshPrefix(), FILE_STABLE_MS: '300', HTTP_PORT: '0', ...env });
}

export function testIntake(redisUrl: string, config: Config): TestIntake {
  const redis = new Redis(redisOptionsFromUrl(redisUrl));
  redis.on('error', () => undefined); // a test may stop Redis: commands report it, the connection retries
  const keys = redisKeys(config.REDIS_PREFIX, config.account);
  const queues = createQueues(
    { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as never,
    bullPrefix(config.REDIS_PREFIX, config.account),
    { attempts: 3, backoffMs: 50 },
  );
  return {
    config,
    logger: silentLogger,
    redis,
    keys,
    queues,
    dir: config.folders.root,
    async close() {
      await queues.close();
      await redis.quit();
    },
  };
}

/**
 * Intake contexts and inbox watchers for the intake tests, closed (and their data folders removed) after each test,
 * through `cleanups`, which the test may use for what it makes itself.
 */
export function useIntakes(redisUrl: () => string) {
  const cleanups = useCleanups();
  return {
    cleanups,
    /** An intake context over a fresh data folder; the inbox sweep is off unless `env` sets SWEEP_CRON. */
    open(env: Record<string, string> = {}, url = redisUrl()): TestIntake {
      // the folder is removed after the test (tempDir), once the context is closed (an afterEach)
      const ctx = testIntake(url, testConfig(tempDir(), { SWEEP_CRON: '0 0 1 1 *', ...env }));
      cleanups.push(() => ctx.close());
      return ctx;
    },
    async watch(ctx: TestIntake, opts: Parameters<typeof startInboxWatcher>[1] = {}): Promise<InboxWatcher> {
      const w = await startInboxWatcher(ctx, opts);
      cleanups.push(() => w.close());
      return w;
    },
  };
}

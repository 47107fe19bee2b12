/**
 * Start-up checks of the Redis the worker is given (the only state store: docs/architecture.md#state-in-redis).
 *   - version >= 6.2 (BullMQ's minimum): refuse;
 *   - maxmemory-policy must be `noeviction`: an evicting Redis may silently drop an idempotency record or a job,
 *     which would create a second RFQ or lose one: refuse;
 *   - persistence (AOF or RDB) off: warn, a Redis restart would then forget every record.
 * Managed services that forbid CONFIG GET are read through INFO where possible; what cannot be read is a warning.
 */
import type { Redis } from 'ioredis';
import { RedisUnfitError, type Logger } from '../core/index.ts';

export const MIN_REDIS_VERSION = '6.2.0';

export interface RedisFacts {
  version: string;
  maxmemoryPolicy: string | undefined;
  aof: boolean | undefined;
  rdb: boolean | undefined;
}

export function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) out[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return out;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export async function readRedisFacts(redis: Redis): Promise<RedisFacts> {
  const info = parseInfo(await redis.info());
  const configGet = async (name: string): Promise<string | undefined> => {
    try {
      const r = (await redis.config('GET', name)) as string[];
      return r[1];
    } catch {
      return undefined; // CONFIG disabled (managed Redis): fall back to INFO
    }
  };
  const policy = info.maxmemory_policy ?? (await configGet('maxmemory-policy'));
  const aofInfo = info.aof_enabled;
  const aof = aofInfo !== undefined ? aofInfo === '1' : (await configGet('appendonly')) === 'yes' ? true : undefined;
  const save = await configGet('save');
  const rdb = save === undefined ? undefined : save.trim() !== '';
  return { version: info.redis_version ?? '0', maxmemoryPolicy: policy, aof, rdb };
}

/** Throws RedisUnfitError when the worker must not run on this Redis; logs a warning for persistence off. */
export async function checkRedis(redis: Redis, logger: Logger): Promise<RedisFacts> {
  const facts = await readRedisFacts(redis);
  if (compareVersions(facts.version, MIN_REDIS_VERSION) < 0) {
    throw new RedisUnfitError(
      `Redis ${facts.version} is too old: rfq-sync (BullMQ) needs Redis ${MIN_REDIS_VERSION} or newer`,
    );
  }
  if (facts.maxmemoryPolicy === undefined) {
    logger.warn('cannot read maxmemory-policy of Redis (INFO and CONFIG GET refused): make sure it is noeviction');
  } else if (facts.maxmemoryPolicy !== 'noeviction') {
    throw new RedisUnfitError(
      `Redis maxmemory-policy is ${facts.maxmemoryPolicy}: an evicting Redis can drop idempotency records and jobs, ` +
        'creating duplicate RFQs. Set it to noeviction (redis.conf: `maxmemory-policy noeviction`, or ' +
        '`redis-cli CONFIG SET maxmemory-policy noeviction` and CONFIG REWRITE; on a managed service, its parameter group).',
    );
  }
  if (facts.aof === false && facts.rdb !== true) {
    logger.warn(
      'Redis persistence is off (no AOF, no RDB): a Redis restart forgets every idempotency record and job; turn on appendonly yes',
    );
  } else if (facts.aof === false) {
    logger.warn(
      'Redis AOF is off (RDB snapshots only): a Redis crash loses the records written since the last snapshot; turn on appendonly yes',
    );
  }
  return facts;
}

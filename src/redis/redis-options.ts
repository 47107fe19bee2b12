/**
 * ioredis options from the configured Redis URL: the one place a REDIS_URL becomes a connection, for the worker's
 * clients, BullMQ's and the commands' alike.
 */
import type { RedisOptions } from 'ioredis';

/**
 * ioredis options from a redis:// or rediss:// URL (TLS for rediss), or from the redis-sentinel:// form that
 * REDIS_SENTINELS becomes (src/settings/config-redis.ts sentinelUrl): the sentinels are asked for the primary, and asked again
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

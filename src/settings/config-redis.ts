/**
 * How the configuration reaches Redis: a REDIS_URL, or Sentinel settings folded into one `redis-sentinel://` URL,
 * and the helpers that read or mask a password in such a URL. Split from src/settings/config.ts (loadConfig).
 */
import { registerSecret } from '../core/index.ts';
import { secretOrFile } from './config-secrets.ts';

/** The Redis settings as parsed (named as their environment variables). */
export interface RedisSettings {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME: string;
  REDIS_PASSWORD?: string | undefined;
  REDIS_PASSWORD_FILE?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_SENTINEL_PASSWORD_FILE?: string | undefined;
  REDIS_WAIT_REPLICAS?: number | undefined;
}

/**
 * Completes the parsed settings in place: under Sentinel REDIS_URL becomes the sentinel URL (passwords read from
 * their files), and REDIS_WAIT_REPLICAS gets its default. Problems are added to `problems`.
 */
export function completeRedisSettings(raw: RedisSettings, problems: string[]): void {
  if (raw.REDIS_SENTINELS) {
    if (raw.REDIS_URL) problems.push('REDIS_SENTINELS: set either REDIS_URL or REDIS_SENTINELS, not both');
    registerSecret(raw.REDIS_PASSWORD);
    registerSecret(raw.REDIS_SENTINEL_PASSWORD);
    raw.REDIS_URL = sentinelUrl(
      raw.REDIS_SENTINELS,
      raw.REDIS_SENTINEL_NAME,
      secretOrFile('REDIS_PASSWORD', raw.REDIS_PASSWORD, raw.REDIS_PASSWORD_FILE, problems),
      secretOrFile('REDIS_SENTINEL_PASSWORD', raw.REDIS_SENTINEL_PASSWORD, raw.REDIS_SENTINEL_PASSWORD_FILE, problems),
    );
  } else if (
    raw.REDIS_PASSWORD ||
    raw.REDIS_PASSWORD_FILE ||
    raw.REDIS_SENTINEL_PASSWORD ||
    raw.REDIS_SENTINEL_PASSWORD_FILE
  ) {
    problems.push('REDIS_PASSWORD: only used with REDIS_SENTINELS (with REDIS_URL the password goes in the URL)');
  }
  raw.REDIS_WAIT_REPLICAS ??= raw.REDIS_SENTINELS ? 1 : 0;
}

/** The password inside a Redis URL, decoded, if any. */
export function redisPassword(redisUrl: string): string | undefined {
  try {
    const u = new URL(redisUrl);
    return u.password ? decodeURIComponent(u.password) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Redis under Sentinel travels through the code as one string, like a REDIS_URL:
 * `redis-sentinel://[:password@]<name>?sentinels=h1:p1,h2:p2[&sentinelPassword=...]` (see src/redis/redis-options.ts).
 */
export function sentinelUrl(sentinels: string, name: string, password?: string, sentinelPassword?: string): string {
  const u = new URL(`redis-sentinel://${name}`);
  if (password) u.password = password;
  u.searchParams.set(
    'sentinels',
    sentinels
      .split(',')
      .map((s) => s.trim())
      .join(','),
  );
  if (sentinelPassword) u.searchParams.set('sentinelPassword', sentinelPassword);
  return u.toString();
}

/** A Redis URL fit to print: the password (and user) replaced. */
export function displayRedisUrl(redisUrl: string): string {
  try {
    const u = new URL(redisUrl);
    if (u.password) u.password = '***';
    if (u.searchParams.has('sentinelPassword')) u.searchParams.set('sentinelPassword', '***');
    return u.toString();
  } catch {
    return '(unparseable Redis URL)';
  }
}

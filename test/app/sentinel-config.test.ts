/** REDIS_SENTINELS in the configuration: refused beside REDIS_URL, passwords from files, never printed. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { redisOptionsFromUrl } from '../../src/redis/redis-options.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { displayRedisUrl } from '../../src/settings/config-redis.ts';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return [...(err as ConfigError).problems];
  }
};

describe('Redis under Sentinel', () => {
  it('every connection gets the sentinels, the primary name and both passwords; display masks them', () => {
    const dir = tempDir('rfq-sentinel-');
    writeFileSync(join(dir, 'redis-pw'), 'p@ss:w/rd\n');
    const c = loadConfig({
      REDIS_SENTINELS: 'a.example:26379, b.example:26380',
      REDIS_SENTINEL_NAME: 'rfq',
      REDIS_PASSWORD_FILE: join(dir, 'redis-pw'),
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    const o = redisOptionsFromUrl(c.REDIS_URL!);
    expect(o).toMatchObject({
      sentinels: [
        { host: 'a.example', port: 26379 },
        { host: 'b.example', port: 26380 },
      ],
      name: 'rfq',
      password: 'p@ss:w/rd',
      sentinelPassword: 'sentinel-secret',
    });
    expect(c.REDIS_WAIT_REPLICAS).toBe(1);
    const shown = displayRedisUrl(c.REDIS_URL!);
    expect(shown).not.toMatch(/p%40ss|p@ss|sentinel-secret/);
    expect(shown).toMatch(/redis-sentinel:\/\/:\*\*\*@rfq/);
  });

  it('REDIS_URL and REDIS_SENTINELS together are refused; a password without sentinels too', () => {
    expect(problems({ REDIS_URL: 'redis://localhost:6379', REDIS_SENTINELS: 'a:26379' })).toContain(
      'REDIS_SENTINELS: set either REDIS_URL or REDIS_SENTINELS, not both',
    );
    expect(problems({ REDIS_URL: 'redis://localhost:6379', REDIS_PASSWORD: 'x' })[0]).toMatch(
      /^REDIS_PASSWORD: only used with REDIS_SENTINELS/,
    );
    expect(problems({ REDIS_SENTINELS: 'no-port' })[0]).toMatch(/^REDIS_SENTINELS: must be host:port/);
  });

  it('a single Redis waits for no replica unless told', () => {
    expect(loadConfig({ REDIS_URL: 'redis://localhost:6379' }).REDIS_WAIT_REPLICAS).toBe(0);
    expect(loadConfig({ REDIS_URL: 'redis://localhost:6379', REDIS_WAIT_REPLICAS: '2' }).REDIS_WAIT_REPLICAS).toBe(2);
  });
});

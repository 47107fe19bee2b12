/** Configuration errors: one line per problem, naming the variable; secrets never echoed. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { scrubSecrets } from '../../src/core/logger.ts';
import { redisOptionsFromUrl } from '../../src/redis/redis-options.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { displayRedisUrl } from '../../src/settings/config-redis.ts';

const BIN = resolve(import.meta.dirname, '../../bin/rfq-sync.ts');

function problemsOf(env: Record<string, string>, opts: { requireProduction?: boolean } = {}): string[] {
  try {
    loadConfig(env, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  return [];
}

describe('configuration', () => {
  it('reports every problem on its own line, naming the variable', () => {
    const problems = problemsOf({
      HTTP_PORT: 'abc',
      LOG_LEVEL: 'loud',
      SOURCING_BASE_URL: 'ftp://host',
      POLL_CRON: 'often',
      REDIS_URL: 'http://x',
    });
    expect(problems).toHaveLength(5);
    for (const name of ['HTTP_PORT', 'LOG_LEVEL', 'SOURCING_BASE_URL', 'POLL_CRON', 'REDIS_URL']) {
      expect(problems.filter((p) => p.startsWith(`${name}: `))).toHaveLength(1);
    }
    for (const p of problems) expect(p).not.toContain('\n');
  });

  it('TIME_ZONE: UTC by default, an IANA name in its canonical spelling, an unknown zone named as a problem', () => {
    expect(loadConfig({}).TIME_ZONE).toBe('UTC');
    expect(loadConfig({ TIME_ZONE: 'europe/berlin' }).TIME_ZONE).toBe('Europe/Berlin');
    expect(problemsOf({ TIME_ZONE: 'Europe/Atlantis' })).toEqual([
      'TIME_ZONE: must be an IANA time zone name such as Europe/Berlin or UTC',
    ]);
  });

  it('never echoes a secret value in a problem', () => {
    const problems = problemsOf({
      HTTP_TOKEN: 'short-secret',
      HTTP_HOST: '0.0.0.0',
      SOURCING_TOKEN: 'tok-abcdef-123',
      SOURCING_TOKEN_FILE: '/nonexistent',
    });
    expect(problems.join('\n')).not.toContain('short-secret');
    expect(problems.some((p) => p.startsWith('HTTP_TOKEN: '))).toBe(true);
    const p2 = problemsOf({
      SOURCING_BASE_URL: 'https://svc.example',
      SOURCING_TOKEN: 'tok-abcdef-123',
      SOURCING_TOKEN_FILE: '/nonexistent/file',
    });
    expect(p2.join('\n')).not.toContain('tok-abcdef-123');
    expect(p2.some((p) => p.startsWith('SOURCING_TOKEN_FILE: '))).toBe(true);
  });

  it('reads the token from SOURCING_TOKEN_FILE (Docker secrets) and names an unreadable one', () => {
    const dir = tempDir('rfq-cfg-');
    const file = join(dir, 'token');
    writeFileSync(file, 'file-token-value-42\n');
    const cfg = loadConfig({ SOURCING_BASE_URL: 'https://svc.example/esourcing', SOURCING_TOKEN_FILE: file });
    expect(cfg.token).toBe('file-token-value-42');
    expect(scrubSecrets('sent file-token-value-42')).toBe('sent [REDACTED]');
    expect(problemsOf({ SOURCING_BASE_URL: 'https://svc.example', SOURCING_TOKEN_FILE: join(dir, 'missing') })).toEqual(
      [`SOURCING_TOKEN_FILE: cannot read ${join(dir, 'missing')}: ENOENT`],
    );
  });

  it('accepts redis:// and rediss:// with a password, and never prints the password', () => {
    const cfg = loadConfig({ REDIS_URL: 'rediss://app:p%40ss-w0rd-xyz@redis.example:6380/2' });
    expect(cfg.REDIS_URL).toBe('rediss://app:p%40ss-w0rd-xyz@redis.example:6380/2');
    expect(displayRedisUrl(cfg.REDIS_URL!)).toBe('rediss://app:***@redis.example:6380/2');
    // Registered with the scrubber in both spellings.
    expect(scrubSecrets('AUTH p@ss-w0rd-xyz failed')).toBe('AUTH [REDACTED] failed');
    expect(scrubSecrets('connecting to rediss://app:p%40ss-w0rd-xyz@redis.example:6380/2')).not.toContain('w0rd');
    // What the connections are opened with: TLS on, user and password decoded, the database number.
    expect(redisOptionsFromUrl(cfg.REDIS_URL!)).toMatchObject({
      host: 'redis.example',
      port: 6380,
      username: 'app',
      password: 'p@ss-w0rd-xyz',
      db: 2,
      tls: {},
    });
    expect(redisOptionsFromUrl('redis://127.0.0.1:6379').tls).toBeUndefined();
  });

  it('demands REDIS_URL and SOURCING_BASE_URL for the production worker', () => {
    const problems = problemsOf({}, { requireProduction: true });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['REDIS_URL', 'SOURCING_BASE_URL']);
  });

  it('merges an optional config file, the environment winning, and names unknown keys', () => {
    const dir = tempDir('rfq-cfg-');
    const file = join(dir, 'rfq-sync.yaml');
    writeFileSync(file, 'POLL_CRON: "*/2 * * * *"\nLOG_LEVEL: debug\nCONCURENCY_CREATE: 4\n');
    expect(problemsOf({ RFQ_SYNC_CONFIG: file })).toEqual([`CONCURENCY_CREATE: unknown setting in ${file}`]);
    writeFileSync(file, 'POLL_CRON: "*/2 * * * *"\nLOG_LEVEL: debug\n');
    const cfg = loadConfig({ RFQ_SYNC_CONFIG: file, LOG_LEVEL: 'warn' });
    expect(cfg.POLL_CRON).toBe('*/2 * * * *');
    expect(cfg.LOG_LEVEL).toBe('warn');
  });

  it('the CLI exits 2 with one line per problem on stderr', () => {
    const r = spawnSync(process.execPath, [BIN, 'status'], {
      env: { PATH: process.env.PATH ?? '', HTTP_PORT: '99999', HTTP_HOST: '0.0.0.0', HTTP_TOKEN: 'short-secret' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('rfq-sync: invalid configuration:');
    expect(
      lines
        .slice(1)
        .map((l) => l.trim().split(':')[0])
        .sort(),
    ).toEqual(['HTTP_PORT', 'HTTP_TOKEN']);
    expect(r.stderr).not.toContain('short-secret');
    expect(r.stdout).toBe('');
  });
});

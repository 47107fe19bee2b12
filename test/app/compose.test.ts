/** docker-compose.yml as IT will run it (parsed; no Docker engine needed). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
  logging?: { driver: string; options: Record<string, string> };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

describe('docker-compose.yml', () => {
  const doc = parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, Service>;
    secrets: Record<string, { file: string }>;
  };
  const { redis, worker, sandbox } = doc.services;

  it('runs Redis with AOF on, noeviction and a health check', () => {
    const cmd = redis!.command!.join(' ');
    expect(cmd).toMatch(/--appendonly yes/);
    expect(cmd).toMatch(/--maxmemory-policy noeviction/);
    expect(redis!.healthcheck!.test.join(' ')).toContain('ping');
    expect(redis!.volumes!.some((v) => v.endsWith(':/data'))).toBe(true);
  });

  it('runs the worker from the Dockerfile with inbox/outbox volumes and the token as a secret', () => {
    expect(worker!.build).toBeDefined();
    expect(worker!.command).toEqual(['worker']);
    expect(worker!.depends_on!.redis!.condition).toBe('service_healthy');
    const env = worker!.environment!;
    expect(env.SOURCING_TOKEN_FILE).toBe('/run/secrets/sourcing_token');
    expect(env.SOURCING_TOKEN).toBeUndefined();
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(worker!.secrets).toContain('sourcing_token');
    expect(doc.secrets.sourcing_token!.file).toBeTruthy();
    const targets = worker!.volumes!.map((v) => v.split(':').at(-1));
    expect(targets).toContain(env.RFQ_SYNC_DIR); // inbox/ lives under the data root
    expect(targets).toContain(`${env.RFQ_SYNC_DIR}/outbox`);
    // Non-loopback operations endpoint: a token is given.
    expect(env.HTTP_HOST).toBe('0.0.0.0');
    expect(env.HTTP_TOKEN_FILE).toBeTruthy();
    // The container is stopped only after graceful shutdown had its time.
    expect(Number.parseInt(worker!.stop_grace_period!, 10) * 1000).toBeGreaterThan(Number(env.SHUTDOWN_TIMEOUT_MS));
  });

  it('keeps the sandbox under its own profile', () => {
    expect(sandbox!.profiles).toEqual(['sandbox']);
    expect(sandbox!.command![0]).toBe('sandbox');
    expect(worker!.profiles).toBeUndefined();
  });

  it('logs, exec and down need no variable: nothing is required at interpolation time', () => {
    const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
    expect(text).not.toMatch(/\$\{[A-Z_]+:?\?/); // ${VAR:?...} makes every compose command fail while VAR is unset
    const example = readFileSync(resolve(ROOT, '.env.example'), 'utf8');
    for (const v of ['SOURCING_BASE_URL', 'RFQ_SYNC_DATA', 'HTTP_PORT'])
      expect(example).toMatch(new RegExp(`^${v}=`, 'm'));
  });

  it('moves the outbox with RFQ_SYNC_DATA unless RFQ_SYNC_OUTBOX says otherwise', () => {
    expect(worker!.volumes).toContain('${RFQ_SYNC_DATA:-./rfq-sync-data}:/data');
    expect(worker!.volumes).toContain('${RFQ_SYNC_OUTBOX:-${RFQ_SYNC_DATA:-./rfq-sync-data}/outbox}:/data/outbox');
  });

  it('checks readiness on the configured port, rotates logs, and does not loop on a configuration error', () => {
    const check = worker!.healthcheck!.test.join(' ');
    expect(check).toContain('/readyz');
    expect(check).toContain('process.env.HTTP_PORT');
    expect(worker!.environment!.HTTP_PORT).toBe('${HTTP_PORT:-9464}');
    expect(worker!.ports).toEqual(['127.0.0.1:${HTTP_PORT:-9464}:${HTTP_PORT:-9464}']);
    for (const s of [worker!, redis!])
      expect(s.logging).toMatchObject({
        driver: 'json-file',
        options: { 'max-size': expect.any(String), 'max-file': expect.any(String) },
      });
    // exit 2 fails the same way every time: a bounded number of restarts, not unless-stopped/always
    expect(worker!.restart).toMatch(/^on-failure:\d+$/);
  });

  it('builds the worker on Node 24', () => {
    const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:24/m);
    expect(dockerfile).toMatch(/ENTRYPOINT \["node", "bin\/rfq-sync.ts"\]/);
  });
});

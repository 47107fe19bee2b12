/**
 * The operations endpoint and readiness as an attacker and an unlucky administrator meet them: DNS rebinding (a
 * loopback request naming another Host), write actions without the token, a service that "answers" but refuses
 * everything for good (404 on a wrong prefix, a login page), polls that keep failing, a Redis whose eviction policy
 * changed at run time, and a redirect (said with its origin only).
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { PermanentHttpError } from '../../src/core/errors.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { permanentlyFailing, pollReadiness, redisReadiness, serviceReadiness } from '../../app/http/readiness.ts';
import { startEmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { startFakeService } from '../sourcing/fake-service.ts';

const servers: OpsServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

function call(port: number, o: { method?: string; path: string; host: string; token?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: o.method ?? 'GET',
        path: o.path,
        headers: {
          host: o.host,
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          'content-type': 'application/json',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(o.method && o.method !== 'GET' ? '{}' : undefined);
  });
}

describe('the operations endpoint', () => {
  it('refuses a loopback request naming another Host (DNS rebinding) unless it carries the token', async () => {
    const token = 'ops-token-0123456789abcdef';
    const s = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      token,
      allowedHosts: ['rfq-sync.internal'],
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    });
    servers.push(s);
    expect(await call(s.port, { path: '/queues', host: 'attacker.example:80' })).toBe(421);
    expect(await call(s.port, { path: '/readyz', host: 'attacker.example' })).toBe(421);
    expect(await call(s.port, { path: '/queues', host: `localhost:${s.port}` })).toBe(200);
    expect(await call(s.port, { path: '/queues', host: `127.0.0.1:${s.port}` })).toBe(200);
    expect(await call(s.port, { path: '/queues', host: 'rfq-sync.internal' })).toBe(200);
    expect(await call(s.port, { path: '/queues', host: 'attacker.example', token })).toBe(200);
    expect(await call(s.port, { path: '/healthz', host: 'attacker.example' })).toBe(200); // reveals nothing
  });

  it('write actions need the token from every client, loopback included; without HTTP_TOKEN the dashboard is read-only', async () => {
    const token = 'ops-token-0123456789abcdef';
    const withToken = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      token,
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    });
    const readOnly = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    });
    servers.push(withToken, readOnly);
    const add = '/queues/api/queues/create-rfq/add';
    expect(await call(withToken.port, { method: 'POST', path: add, host: 'localhost' })).toBe(401);
    expect(
      await call(withToken.port, {
        method: 'PUT',
        path: '/queues/api/queues/create-rfq/retry/failed',
        host: 'localhost',
      }),
    ).toBe(401);
    expect(await call(withToken.port, { method: 'POST', path: add, host: 'localhost', token })).not.toBe(401);
    expect(await call(readOnly.port, { method: 'POST', path: add, host: 'localhost' })).toBe(403);
    expect(await call(readOnly.port, { path: '/queues', host: 'localhost' })).toBe(200);
  });
});

describe('readiness', () => {
  it('is not ready while every recent call fails for good (404 on a wrong prefix, a login page), saying why', async () => {
    const now = Date.now();
    const calls = (status: number | 'invalid' | 'error', n: number) =>
      Array.from({ length: n }, (_, i) => ({ operation: 'listRfqs', status, at: now - i * 1000, durationMs: 5 }));
    expect(permanentlyFailing(calls(404, 5), now)).toMatch(
      /the last 5 calls .* HTTP 404 x5 \(a wrong path prefix in SOURCING_BASE_URL\?\)/,
    );
    expect(permanentlyFailing(calls('invalid', 4), now)).toMatch(
      /not JSON \(a login or error page\?\) x4 .*proxy or login page/,
    );
    expect(permanentlyFailing([...calls(404, 4), ...calls(200, 1)], now)).toBeUndefined();
    expect(permanentlyFailing(calls(503, 5), now)).toBeUndefined(); // transient: the probe decides
    expect(permanentlyFailing(calls(404, 2), now)).toBeUndefined(); // too few to say

    const metrics = createMetrics({ defaultMetrics: false });
    for (let i = 0; i < 3; i++) metrics.onApiCall({ operation: 'listRfqs', status: 404, durationMs: 3 });
    const check = await serviceReadiness('http://127.0.0.1:9/', metrics)();
    expect(check).toMatchObject({ ok: false, detail: expect.stringMatching(/all failed for good: HTTP 404 x3/) });
  });

  it('is not ready after three failed polls in a row (a hanging poll ends at POLL_MAX_MS and fails), saying the last error', async () => {
    const failed = (error: string) => ({ ok: false, error, finishedAt: Date.now() });
    expect(
      await pollReadiness(async () => [
        failed('the poll did not finish within POLL_MAX_MS'),
        failed('x'),
        failed('y'),
      ])(),
    ).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/the last 3 polls failed: the poll did not finish within POLL_MAX_MS/),
    });
    expect(
      (await pollReadiness(async () => [failed('x'), { ok: true, finishedAt: Date.now() }, failed('y')])()).ok,
    ).toBe(true);
    expect((await pollReadiness(async () => [])()).ok).toBe(true);
  });

  it('is not ready when Redis was switched to an evicting policy at run time', async () => {
    const own = await startEmbeddedRedis({ appendonly: false });
    try {
      const admin = new Redis(own.url);
      expect((await redisReadiness(own.url).check()).ok).toBe(true);
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const r = redisReadiness(own.url);
      expect(await r.check()).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/maxmemory-policy is allkeys-lru: it may evict/),
      });
      await r.close();
      await admin.quit();
    } finally {
      await own.stop();
    }
  });
});

describe('a redirect from the service', () => {
  it('is refused and said with where it pointed: the origin only, never the path, query or the token', async () => {
    const svc = await startFakeService(
      (_req, _url, res) =>
        void res.writeHead(302, { location: 'https://login.example.com/sso/start?session=abc123&next=%2Fv1' }).end(),
    );
    try {
      const client = createSourcingClient({ baseUrl: svc.url, getToken: () => 'bearer-SECRET-token', getRetries: 0 });
      const err = (await client.getRfq(5).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(PermanentHttpError);
      expect(err.message).toMatch(/HTTP 302.*redirect to https:\/\/login\.example\.com refused/);
      expect(err.message).not.toMatch(/sso|abc123|session|SECRET/);
      await client.close();
    } finally {
      await svc.stop();
    }
  });
});

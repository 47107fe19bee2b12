/** The operations endpoint: /readyz follows Redis, /metrics names the metrics, /queues answers, tokens enforced. */
import { networkInterfaces } from 'node:os';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { METRIC_NAMES, createMetrics } from '../../app/http/metrics.ts';
import { redisReadiness } from '../../app/http/readiness.ts';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { waitFor as waitUntil } from '../helpers/wait.ts';

/** True once `cond` holds, false when it did not within `timeoutMs`. */
const waitFor = (cond: () => Promise<boolean>, timeoutMs: number): Promise<boolean> =>
  waitUntil('the condition', cond, timeoutMs, 200).catch(() => false);

describe('operations endpoint', () => {
  let redis: EmbeddedRedis;
  let server: OpsServer;
  let readiness: ReturnType<typeof redisReadiness>;
  let queue: Queue;
  const metrics = createMetrics();

  beforeAll(async () => {
    redis = await startEmbeddedRedis({ appendonly: false });
    readiness = redisReadiness(redis.url);
    queue = new Queue('create-rfq', { connection: { host: '127.0.0.1', port: redis.port }, prefix: freshPrefix() });
    queue.on('error', () => undefined); // Redis is stopped on purpose below
    server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      logger: silentLogger,
      metrics,
      checks: { redis: readiness.check },
      queues: [queue],
    });
  });
  afterAll(async () => {
    await server?.close();
    await queue?.close();
    await readiness?.close();
    await redis?.stop();
  });

  it('/healthz answers while the process is up', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it('/readyz goes red when Redis stops and green when it comes back', async () => {
    const ready = async () => (await fetch(`${server.url}/readyz`)).status;
    expect(await ready()).toBe(200);
    await redis.stop();
    expect(await waitFor(async () => (await ready()) === 503, 10_000)).toBe(true);
    const body = (await (await fetch(`${server.url}/readyz`)).json()) as {
      ready: boolean;
      checks: { redis: { ok: boolean; detail: string } };
    };
    expect(body.ready).toBe(false);
    expect(body.checks.redis.ok).toBe(false);
    expect(body.checks.redis.detail).toMatch(/Redis/);
    await redis.restart();
    expect(await waitFor(async () => (await ready()) === 200, 15_000)).toBe(true);
  });

  it('/metrics exposes jobs, API calls, latency, RFQs by state, files and queue depth', async () => {
    metrics.onApiCall({ operation: 'createRfq', status: 201, durationMs: 42 });
    metrics.onApiCall({ operation: 'listRfqs', status: 'error', durationMs: 3000 });
    metrics.onJob('create-rfq', 'completed');
    metrics.onFile('archived');
    metrics.setSources({
      rfqsByState: async () => ({ open: 3, closed: 1 }),
      queueCounts: async () => ({ 'create-rfq': { waiting: 5 } }),
      pausedForAuth: async () => false,
    });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    for (const name of Object.values(METRIC_NAMES)) expect(text).toContain(`# TYPE ${name} `);
    expect(text).toContain('rfq_sync_api_calls_total{operation="createRfq",status="201"} 1');
    expect(text).toContain('rfq_sync_api_calls_total{operation="listRfqs",status="error"} 1');
    expect(text).toContain('rfq_sync_api_call_duration_seconds_bucket{le="0.05",operation="createRfq"} 1');
    expect(text).toContain('rfq_sync_jobs_total{queue="create-rfq",result="completed"} 1');
    expect(text).toContain('rfq_sync_files_total{outcome="archived"} 1');
    expect(text).toContain('rfq_sync_rfqs{state="open"} 3');
    expect(text).toContain('rfq_sync_queue_jobs{queue="create-rfq",state="waiting"} 5');
    expect(text).toContain('rfq_sync_paused_for_auth 0');
  });

  it('serves the Bull Board dashboard at /queues with the queues', async () => {
    const page = await fetch(`${server.url}/queues`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    const api = await fetch(`${server.url}/queues/api/queues`);
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((q) => q.name)).toContain('create-rfq');
  });
});

describe('operations endpoint access', () => {
  it('refuses to bind a non-loopback address without a token', async () => {
    await expect(
      startOpsServer({
        host: '0.0.0.0',
        port: 0,
        logger: silentLogger,
        metrics: createMetrics({ defaultMetrics: false }),
      }),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(!external)('asks non-loopback clients for the token, and lets loopback clients in', async () => {
    const token = 'ops-token-0123456789abcdef';
    const server = await startOpsServer({
      host: '0.0.0.0',
      port: 0,
      token,
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    });
    try {
      const remote = `http://${external}:${server.port}`;
      expect((await fetch(`${remote}/healthz`)).status).toBe(200);
      const refused = await fetch(`${remote}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/Basic/);
      expect(
        (await fetch(`${remote}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
      ).toBe(401);
      expect((await fetch(`${remote}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const basic = Buffer.from(`ops:${token}`).toString('base64');
      expect((await fetch(`${remote}/queues`, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

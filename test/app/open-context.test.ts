/** openContext: both sourcing clients are built from the configuration with the metrics hook, each with its own options. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { openContext } from '../../app/runtime/endpoints.ts';
import { closeWorkerContext } from '../../app/runtime/worker-context.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const r = useRedis();
let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ faults: { down: true } });
  dir = tempDir('rfq-open-ctx-');
});
afterAll(async () => {
  await sandbox.stop();
});

describe('openContext', () => {
  it("builds the listing client apart from the main one, and counts both clients' calls (retries included) in the metrics", async () => {
    const config = loadConfig({
      RFQ_SYNC_DIR: dir,
      REDIS_PREFIX: freshPrefix(),
      REDIS_URL: r.url,
      SOURCING_BASE_URL: sandbox.url,
      SOURCING_TOKEN: 'sandbox-token',
      SOURCING_GET_RETRIES: '2',
      HTTP_PORT: '0',
    });
    const metrics = createMetrics({ defaultMetrics: false });
    const runtime = {
      redisUrl: r.url,
      baseUrl: sandbox.url,
      getToken: () => 'sandbox-token',
      stop: async () => undefined,
    };
    const ctx = await openContext(config, silentLogger, runtime, { metrics });
    try {
      expect(ctx.listingClient).not.toBe(ctx.client);
      const calls = async () => (await metrics.apiCalls.get()).values.reduce((n, v) => n + v.value, 0);
      await expect(ctx.listingClient.listRfqPages('open')[Symbol.asyncIterator]().next()).rejects.toThrow();
      expect(await calls()).toBe(3); // SOURCING_GET_RETRIES=2: first try and two retries
      await expect(ctx.client.listRfqPages('open')[Symbol.asyncIterator]().next()).rejects.toThrow();
      expect(await calls()).toBe(3 + 3);
    } finally {
      await closeWorkerContext(ctx);
    }
  }, 20_000);
});

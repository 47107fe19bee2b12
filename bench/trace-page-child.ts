/**
 * The worker's side of bench:trace's page measure, in a process of its own (its peak RSS is the page's, not the
 * log generator's): the operations endpoint with the lookup page as the worker wires it (app/http/trace-lookup.ts,
 * its threads, its limits) on a real Redis, and a stand-in of the schedules: a 100 ms timer whose lateness is
 * recorded, with the event loop's delay. The parent asks; on `report` this answers with its figures and exits.
 * Started as bin/rfq-sync.ts starts the worker: with Node's compile cache (app/compile-cache.ts); `--idle` reports the
 * idle RSS and exits (the parent's first start, the one that fills the cache).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { useCompileCache } from '../app/compile-cache.ts';

useCompileCache(); // as bin/rfq-sync.ts starts the worker: before the modules below load, so they are cached
const { Redis } = await import('ioredis');
const { startOpsServer } = await import('../app/http/http-server.ts');
const { createMetrics } = await import('../app/http/metrics.ts');
const { traceLookupFor } = await import('../app/http/trace-lookup.ts');
const { silentLogger } = await import('../src/core/logger.ts');
const { redisKeys } = await import('../src/redis/redis-keys.ts');
const { loadConfig } = await import('../src/settings/config.ts');

const [root, redisUrl, account, only] = process.argv.slice(2) as [string, string, string, string?];
const config = loadConfig({ RFQ_SYNC_DIR: root, SOURCING_ACCOUNT: account, REDIS_URL: redisUrl } as NodeJS.ProcessEnv);
const redis = new Redis(redisUrl);
const ops = await startOpsServer({ host: '127.0.0.1', port: 0, logger: silentLogger, metrics: createMetrics() });
ops.setLookup(traceLookupFor(config, { redis, keys: redisKeys(config.REDIS_PREFIX, account), logger: silentLogger }));

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let lateMax = 0;
let expected = Date.now() + 100;
const tick = setInterval(() => {
  lateMax = Math.max(lateMax, Date.now() - expected);
  expected = Date.now() + 100;
}, 100);

process.on('message', (m) => {
  if (m !== 'report') return;
  clearInterval(tick);
  loop.disable();
  process.send!({
    maxRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6), // KiB
    loopDelayMaxMs: Math.round(loop.max / 1e6),
    loopDelayP99Ms: Math.round(loop.percentile(99) / 1e6),
    timerLateMaxMs: lateMax,
  });
  void ops.close().finally(() => {
    redis.disconnect();
    process.exit(0);
  });
});
process.send!({ url: ops.url, idleRssMB: Math.round(process.memoryUsage().rss / 1e6) });
if (only === '--idle') process.exit(0); // a first start, its modules compiled: the parent notes its idle RSS

/**
 * Proof 3 (docs/architecture.md#proofs-the-tests-run): Redis restarts in the middle of a run. The test runs its own
 * redis-server with AOF on (as the service requires) and restarts it twice while 200 requisitions are being created.
 * Result: exactly 200 RFQs, every external_id once, nothing lost, nothing stuck. In both dialects of the service.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { jobCounts, settled } from '../helpers/job-counts.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';

// 100 ms per call, 4 jobs at a time: the run lasts ~5 s, long enough to restart Redis twice in its middle.
const sandboxes = {
  friendly: useSandbox({ pageSize: 100, faults: { latencyMs: 100 } }),
  docs: useSandbox({ pageSize: 100, faults: { latencyMs: 100 }, dialect: 'docs' }),
};
let redis: EmbeddedRedis | undefined;
let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
async function stopAll(): Promise<void> {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  await redis?.stop();
  worker = ctx = redis = undefined;
}
afterEach(stopAll);

describe('proof 3: Redis restarted mid-run (AOF on)', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: creates exactly 200 RFQs for 200 requisitions across two Redis restarts',
    async (dialect) => {
      const sb = sandboxes[dialect];
      redis = await startEmbeddedRedis({ appendonly: true });
      const r = redis;
      ctx = await pipelineContext({
        redisUrl: r.url,
        baseUrl: sb.url,
        token: sb.token,
        prefix: freshPrefix(),
        account: `restart-${dialect}`,
        extra: { CONCURRENCY_CREATE: '4' },
      });
      const c = ctx;
      const reqs = makeRequisitions(200, `rr${dialect}`);
      for (const q of reqs) await enqueueCreateRfq(ctx.queues, q);
      worker = startWorker(ctx, {
        queues: ['createRfq'],
        lockDurationMs: 3_000,
        stalledIntervalMs: 1_000,
        maxStalledCount: 100,
        drainDelaySeconds: 1,
      });

      const restartsAt: number[] = [];
      for (const threshold of [50, 120]) {
        await waitFor(
          `${threshold} completed`,
          async () => (await c.queues.createRfq.getCompletedCount()) >= threshold,
          30_000,
          50,
        );
        restartsAt.push(sb.sandbox.stats().rfqsCreated);
        await r.stop(); // SIGTERM: Redis writes its AOF and exits
        // sleep: down for a second (the outage is the scenario): calls fail, jobs wait or retry
        await new Promise((res) => setTimeout(res, 1_000));
        await r.restart(); // same port and data dir: the AOF is replayed
      }
      await waitFor(
        '200 completed',
        async () => (await c.queues.createRfq.getCompletedCount().catch(() => 0)) === 200,
        40_000,
        250,
      );

      expect(restartsAt.every((n) => n < 200)).toBe(true); // both restarts hit a run in progress
      const rfqs = sb.sandbox.control.listAll();
      expect(checkExactlyOnce(rfqs, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 200 });
      expect(await jobCounts(ctx.queues.createRfq)).toEqual(settled(200));
      const store = createIdempotencyStore(ctx.redis, ctx.keys);
      const recs = await Promise.all((await store.list(0, 1000)).map((id) => store.get(id)));
      expect(recs.filter((x) => x?.state === 'created')).toHaveLength(200);
      console.log(
        `proof 3 (${dialect}): restarts after ${restartsAt.join(' and ')} RFQs; adopted ${recs.filter((x) => x?.how === 'adopted').length}; calls ${JSON.stringify(sb.sandbox.stats().calls)}`,
      );
    },
  );
});

/**
 * Proof 2's case (docs/architecture.md#proofs-the-tests-run), registered by one test file per dialect so they run
 * side by side: proof-crash.test.ts (friendly dialect), proof-crash-docs.test.ts (docs dialect).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { jobCounts, settled } from '../helpers/job-counts.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext, pipelineEnvVars, type PipelineEnv } from '../helpers/worker-env.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The shipped `rfq-sync worker` on the create-rfq queue only, with a short lock and stalled check so a killed
 * worker's jobs come back quickly (and may come back any number of times).
 */
const WORKER_TUNING = {
  WORKER_QUEUES: 'create-rfq',
  JOB_LOCK_MS: '2000',
  STALLED_CHECK_MS: '1000',
  JOB_MAX_STALLED: '1000',
};

/** The proof against one dialect of the service. */
export function crashProof(dialect: 'friendly' | 'docs'): void {
  // Redis, a fresh data folder and REDIS_PREFIX per test, the worker children; the dialect's sandbox.
  const pipeline = usePipeline({ sandbox: false, tag: 'crash' });
  // 100 ms per call and 4 jobs at a time: the 300 creates take ~8 s of worker time, so the kills land mid-run.
  const sb = useSandbox({ pageSize: 100, faults: { latencyMs: 100 }, ...(dialect === 'docs' ? { dialect } : {}) });

  let ctx: AppContext | undefined;
  afterAll(async () => {
    if (ctx) await closeWorkerContext(ctx);
  });

  describe('proof 2: a worker killed with SIGKILL at random moments', () => {
    it.each([dialect])(
      '%s dialect: creates exactly 300 RFQs for 300 requisitions across 10+ kills and restarts',
      async () => {
        const e: PipelineEnv = {
          redisUrl: pipeline.redisUrl,
          baseUrl: sb.url,
          token: sb.token,
          prefix: pipeline.prefix,
          dir: pipeline.data.root,
          account: `crash-${dialect}`,
          extra: {
            CONCURRENCY_CREATE: '4',
            SOURCING_CONNECT_TIMEOUT_MS: '500',
            SOURCING_HEADERS_TIMEOUT_MS: '1000',
            SOURCING_BODY_TIMEOUT_MS: '1000',
            SOURCING_CALL_DEADLINE_MS: '2500',
          },
        };
        if (ctx) await closeWorkerContext(ctx);
        ctx = await pipelineContext(e);
        const c = ctx;
        const reqs = makeRequisitions(300, `crash${dialect}`);
        for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
        const env = { ...pipelineEnvVars(e), ...WORKER_TUNING };

        const kills: Array<{ afterMs: number; completedBefore: number }> = [];
        let child = await pipeline.spawnWorker(env);
        const started = Date.now();
        for (let i = 0; i < 10; i++) {
          const afterMs = 200 + Math.floor(Math.random() * 1000);
          await new Promise((r) => setTimeout(r, afterMs));
          const completedBefore = await c.queues.createRfq.getCompletedCount();
          await child.kill('SIGKILL');
          kills.push({ afterMs, completedBefore });
          child = await pipeline.spawnWorker(env);
        }
        const killPhaseMs = Date.now() - started;
        await waitFor(
          '300 jobs completed',
          async () => (await c.queues.createRfq.getCompletedCount()) === 300,
          90_000,
          250,
        );
        await child.kill('SIGTERM');

        // the kills really hit a run in progress
        expect(kills.length).toBeGreaterThanOrEqual(10);
        expect(kills.filter((k) => k.completedBefore < 300).length).toBeGreaterThanOrEqual(10);
        const rfqs = sb.sandbox.control.listAll();
        expect(checkExactlyOnce(rfqs, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 300 });
        expect(await jobCounts(ctx.queues.createRfq)).toEqual(settled(300));
        const store = createIdempotencyStore(ctx.redis, ctx.keys);
        const states = await Promise.all((await store.list(0, 1000)).map(async (id) => (await store.get(id))?.state));
        expect(states.filter((s) => s === 'created')).toHaveLength(300);
        const recs = await Promise.all((await store.list(0, 1000)).map((id) => store.get(id)));
        console.log(
          `proof 2 (${dialect}): kill phase ${killPhaseMs} ms, drain ${Date.now() - started - killPhaseMs} ms; kills ${JSON.stringify(kills.map((k) => `${k.afterMs}ms@${k.completedBefore}`))}, retried ${recs.filter((r) => (r?.attempts ?? 0) > 1).length}, adopted ${recs.filter((r) => r?.how === 'adopted').length}; calls ${JSON.stringify(sb.sandbox.stats().calls)}`,
        );
      },
      // 10 restarts of a worker process, each waited for, then the drain: on a loaded 2-core machine more than the
      // default 60 s (the run itself is bounded by the waits above)
      150_000,
    );
  });
}

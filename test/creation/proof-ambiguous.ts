/**
 * Proof 1's cases (docs/architecture.md#proofs-the-tests-run), registered by one test file per dialect so they run
 * side by side: proof-ambiguous.test.ts (friendly dialect), proof-ambiguous-docs.test.ts (docs dialect).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';

const ACCOUNTS = { 'tok-502': 'Buyer 502', 'tok-drop': 'Buyer drop', 'tok-stall': 'Buyer stall' } as const;

/** The proof for one dialect of the service, one test per way of losing the answer. */
export function ambiguousAnswersProof(dialect: 'friendly' | 'docs', modes: Array<'502' | 'drop' | 'stall'>): void {
  const redis = useRedis();
  const sb = useSandbox({ accounts: ACCOUNTS, pageSize: 20, ...(dialect === 'docs' ? { dialect } : {}) });

  let ctx: AppContext | undefined;
  let worker: RunningWorker | undefined;
  afterEach(async () => {
    sb.sandbox.setFaults({});
    await worker?.close(5_000);
    if (ctx) await closeWorkerContext(ctx);
    worker = undefined;
    ctx = undefined;
  });

  describe('proof 1: ambiguous answers to creates', () => {
    it.each(modes.map((mode) => [mode, dialect] as const))(
      'answer lost after commit (%s) for 30 percent of creates, %s dialect: 200 requisitions -> exactly 200 RFQs',
      async (mode) => {
        const token = `tok-${mode}` as const;
        const company = ACCOUNTS[token];
        ctx = await pipelineContext({
          redisUrl: redis.url,
          baseUrl: sb.url,
          token,
          prefix: freshPrefix(),
          account: `${mode}-${dialect}`,
        });
        const reqs = makeRequisitions(200, `amb${mode}${dialect}`);
        for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
        sb.sandbox.resetStats();
        // stall: longer than the client's headers time-out (1.5 s in the test config)
        sb.sandbox.setFaults({ commitThenFail: { rate: 0.3, mode, stallMs: 2_500 } });
        worker = startWorker(ctx, { queues: ['createRfq'] });
        const c = ctx;
        await waitFor(
          '200 jobs completed',
          async () => (await c.queues.createRfq.getCompletedCount()) === 200,
          50_000,
          200,
        );

        const stats = sb.sandbox.stats();
        const rfqs = sb.sandbox.control
          .listAll()
          .filter((r) => r.company === company && r.lines[0]?.external_id?.startsWith(`amb${mode}${dialect}`));
        expect(stats.commitThenFail).toBeGreaterThanOrEqual(30); // the faults did happen (about 60 of ~200 creates)
        expect(checkExactlyOnce(rfqs, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 200 });
        expect(stats.rfqsCreated).toBe(200);
        // every lost answer was settled by finding the RFQ, not by posting again
        const store = createIdempotencyStore(ctx.redis, ctx.keys);
        const records = await Promise.all((await store.list(0, 1000)).map((id) => store.get(id)));
        expect(records.filter((r) => r?.state === 'created')).toHaveLength(200);
        expect(records.filter((r) => r?.how === 'adopted')).toHaveLength(stats.commitThenFail);
        const counts = await ctx.queues.createRfq.getJobCounts('failed', 'wait', 'active', 'delayed');
        expect(counts).toEqual({ failed: 0, wait: 0, active: 0, delayed: 0 });
      },
    );
  });
}

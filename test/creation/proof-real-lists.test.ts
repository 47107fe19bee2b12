/**
 * Proof 6 (docs/architecture.md#proofs-the-tests-run): exactly once against lists that behave like real services'.
 * The sandbox shows a new RFQ in its lists only 2.5 s after storing it, lists newest first, stores units upper-cased
 * and names with their spaces collapsed (where lists echo external_id, the external_ids upper-cased; where they do
 * not, product names upper-cased, a required date filled in and estimated_price left out of the lists), and loses a
 * quarter of the create answers after committing. The lag is measured on the first creates. In both dialects: every
 * requisition is exactly one RFQ, none is posted twice, none is stuck, none is parked (nothing here is ambiguous).
 */
import { describe, expect, it } from 'vitest';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { jobCounts, settled } from '../helpers/job-counts.ts';
import { waitFor } from '../helpers/wait.ts';
import { useOwnParts } from '../helpers/pipeline.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { exactlyOnceBy, realisticRequisitions } from './real-lists.ts';

const redis = useRedis();
const parts = useOwnParts();

const N = 60;

describe('proof 6: exactly once against lists that lag, run newest first and show fields normalised', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: list lag 2.5 s, newest first, normalised units and names, a quarter of the answers lost: one RFQ each, none parked or stuck',
    { timeout: 120_000 },
    async (dialect) => {
      const sandbox = await parts.sandbox({
        seed: 28,
        dialect,
        existing: 30,
        pageSize: 10,
        behaviour: {
          listLagMs: 2_500,
          listOrder: 'newest',
          ...(dialect === 'friendly'
            ? { stores: ['uom-case', 'spaces', 'external-id'] }
            : { stores: ['uom-case', 'spaces', 'name-case', 'required-date'], listOmits: ['estimated_price'] }),
        },
      });
      const ctx = await parts.context({
        redisUrl: redis.url,
        baseUrl: sandbox.url,
        token: 'sandbox-token',
        prefix: freshPrefix(),
        account: `real-${dialect}`,
        extra: { SOURCING_CALL_DEADLINE_MS: '3000', SOURCING_LIST_SETTLE_MS: '200' },
      });
      const reqs: Requisition[] = realisticRequisitions(N, `real${dialect}`);
      for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
      sandbox.resetStats();
      sandbox.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
      parts.worker(ctx, ['createRfq']);
      const c = ctx;
      const done = await waitFor(
        `${N} create jobs finished`,
        async () => {
          const counts = await jobCounts(c.queues.createRfq);
          return (counts.completed ?? 0) + (counts.failed ?? 0) === N ? counts : undefined;
        },
        100_000,
        200,
        async () => JSON.stringify(await jobCounts(c.queues.createRfq)),
      );

      const stats = sandbox.stats();
      const ours = sandbox.control.listAll().filter((r) => r.lines.some((l) => l.external_id));
      const check = exactlyOnceBy(ours, reqs);
      const store = createIdempotencyStore(ctx.redis, ctx.keys);
      const records = await Promise.all(reqs.map((r) => store.get(`generic/${r.key}`)));
      const parked = records.filter((r) => r?.state === 'undecided');
      console.log(
        `proof 6 (${dialect}): ${N} requisitions -> ${check.rfqCount} RFQs, ${check.duplicates.length} lines in two RFQs, ${stats.commitThenFail} lost answers, ${parked.length} parked`,
      );
      expect(stats.commitThenFail).toBeGreaterThanOrEqual(8);
      expect(check).toEqual({ duplicates: [], missing: [], rfqCount: N });
      expect(stats.rfqsCreated).toBe(N); // nothing posted twice
      expect(parked.map((r) => r?.reason)).toEqual([]);
      expect(records.filter((r) => r?.state === 'created')).toHaveLength(N);
      expect(done).toEqual(settled(N)); // none stuck, none failed
    },
  );
});

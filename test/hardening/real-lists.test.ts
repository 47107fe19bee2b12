/**
 * Exactly once against lists that move (docs/architecture.md#proofs-the-tests-run, proof 6 at scale): 100
 * requisitions, a quarter of the create answers lost after commit, in an account whose lists are sorted by due date,
 * lag 1.5 s, store units and names normalised, and keep moving in bursts while the lost answers are reconciled:
 * other users' RFQs arrive anywhere in the order, are hidden from the lists or purged. In the docs dialect the lists
 * also leave the lines out (the detail call confirms each candidate). Both dialects: every requisition exactly one
 * RFQ, none parked, none stuck.
 */
import { describe, expect, it } from 'vitest';
import { enqueueCreateRfq, reconcilerOf } from '../../jobs/create-rfq.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { exactlyOnceBy, realisticRequisitions } from '../creation/real-lists.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { jobCounts, settled } from '../helpers/job-counts.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { useOwnParts } from '../helpers/pipeline.ts';
import { recordFigure } from './figures.ts';

const SECTION = 'Exactly once against moving lists';
const N = 100;
const redis = useRedis();
const parts = useOwnParts();

/** Other users' RFQs, posted straight to the service with due dates all over the order. */
async function postOther(url: string, i: number): Promise<void> {
  await fetch(`${url}/v1/rfqs`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `Someone else's ${i}`,
      due_date: String(Date.UTC(2031, 0, 1) + ((i * 7919) % 20) * 86_400_000),
      rfq_type: 'Public',
      lines: [{ product_name: 'Other', qty: 1 }],
    }),
  }).then((r) => r.arrayBuffer());
}

describe('exactly once while the lists move', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: 100 requisitions, lists by due date lagging 1.5 s and moving in bursts, a quarter of the answers lost',
    async (dialect) => {
      const sandbox = await parts.sandbox({
        seed: 41,
        dialect,
        existing: 40,
        pageSize: 10,
        behaviour: {
          listLagMs: 1_500,
          listOrder: 'due',
          stores: ['uom-case', 'spaces'],
          ...(dialect === 'docs' ? { listOmits: ['lines' as const] } : {}),
        },
      });
      const sb = sandbox;
      const ctx = await parts.context({
        redisUrl: redis.url,
        baseUrl: sb.url,
        token: 'sandbox-token',
        prefix: freshPrefix(),
        account: `moving-${dialect}`,
        extra: { SOURCING_CALL_DEADLINE_MS: '3000', SOURCING_LIST_SETTLE_MS: '200' },
      });
      const c = ctx;
      const reqs = realisticRequisitions(N, `moving${dialect}`);
      for (const r of reqs) await enqueueCreateRfq(c.queues, r);
      sb.resetStats();
      sb.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
      const t0 = Date.now();
      parts.worker(c, ['createRfq']);

      // every second, a burst: another user's RFQ arrives somewhere in the order, one is hidden, one purged
      let moving = true;
      let moves = 0;
      let posted = 0;
      const others = sb.control.listAll().filter((r) => !r.lines.some((l) => l.external_id));
      const mover = (async () => {
        for (let i = 0; moving; i++) {
          await postOther(sb.url, i);
          posted++;
          const pool = sb.control.listAll().filter((r) => !r.lines.some((l) => l.external_id) && !r.hidden);
          const pick = () => pool.splice(Math.floor(Math.random() * pool.length), 1)[0];
          const hide = pick();
          if (hide) sb.control.hide(hide._id);
          const purge = pick();
          if (purge) sb.control.purge(purge._id);
          moves += 3;
          await sleep(1_000); // sleep: the account keeps moving at one round of moves a second (the scenario)
        }
      })();
      const done = await waitFor(
        `${N} create jobs finished`,
        async () => {
          const counts = await jobCounts(c.queues.createRfq);
          return (counts.completed ?? 0) + (counts.failed ?? 0) === N ? counts : undefined;
        },
        240_000,
        250,
        async () => JSON.stringify(await jobCounts(c.queues.createRfq)),
      );
      moving = false;
      await mover;
      const seconds = (Date.now() - t0) / 1000;

      const stats = sb.stats();
      const ours = sb.control.listAll().filter((r) => r.lines.some((l) => l.external_id));
      const check = exactlyOnceBy(ours, reqs);
      const store = createIdempotencyStore(c.redis, c.keys);
      const records = await Promise.all(reqs.map((r) => store.get(`generic/${r.key}`)));
      const parked = records.filter((r) => r?.state === 'undecided');
      const requests = Object.values(stats.calls).reduce(
        (n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0),
        0,
      );
      const walks = await reconcilerOf(c).stats();
      recordFigure({
        section: SECTION,
        name: `${dialect}: RFQs for ${N} requisitions (${stats.commitThenFail} answers lost, ${moves} moves of other RFQs, ${others.length} at the start)`,
        value: check.rfqCount,
        target: String(N),
        ok: check.rfqCount === N && check.duplicates.length === 0,
      });
      recordFigure({
        section: SECTION,
        name: `${dialect}: parked for a person`,
        value: parked.length,
        target: '0',
        ok: parked.length === 0,
      });
      recordFigure({
        section: SECTION,
        name: `${dialect}: requests per requisition (walks ${walks.started}, ${walks.complete} complete); time`,
        value: `${(requests / N).toFixed(2)}; ${seconds.toFixed(0)} s`,
        ok: true,
      });
      expect(stats.commitThenFail).toBeGreaterThanOrEqual(10);
      expect(moves).toBeGreaterThanOrEqual(9);
      expect(check).toEqual({ duplicates: [], missing: [], rfqCount: N });
      expect(stats.rfqsCreated).toBe(N + posted); // ours once each, and the other users'
      expect(parked.map((r) => r?.reason)).toEqual([]);
      expect(done).toEqual(settled(N));
    },
  );
});

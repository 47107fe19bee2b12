/**
 * The reconcile search under churn and faults (the first two defects the hardening soak found,
 * docs/reliability.md#defects-the-suite-found-all-fixed-in-the-code): RFQs keep moving open -> closed -> completed and new ones keep arriving while requisitions whose
 * create answers were lost are reconciled page by page (5 per page). A search that could have missed the RFQ must
 * never lead to a second POST. A search through 5xx and broken JSON must still finish: reconcile-churn-faults.test.ts
 * (a file of its own, so the two run side by side).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps, enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { checkExactlyOnce, createAsJob } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { COMPANY, postOtherRfq, TOKEN } from './churn-account.ts';

const pipeline = usePipeline({ sandbox: { accounts: { [TOKEN]: COMPANY }, pageSize: 5 } });

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
afterEach(async () => {
  pipeline.sandbox.setFaults({});
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  worker = undefined;
  ctx = undefined;
});

/** Other RFQs of the account (not ours): posted straight to the service. */
const postOther = (tag: string, i: number) => postOtherRfq(pipeline.sandboxUrl, tag, i);

describe('reconcile search while RFQs move between lists', () => {
  it('lost create answers reconciled while RFQs keep closing, completing and arriving: exactly one RFQ per requisition', async () => {
    const tag = `churn${Date.now() % 100_000}`;
    for (let i = 0; i < 80; i++) expect(await postOther(`${tag}-bg`, i)).toBe(201);
    ctx = await pipelineContext({
      redisUrl: pipeline.redisUrl,
      baseUrl: pipeline.sandboxUrl,
      token: TOKEN,
      prefix: freshPrefix(),
      account: 'churn',
    });
    // a first create before the flood of other users' RFQs: the list lag is measured on it (in a list that
    // others fill faster than it can be read, our new RFQ is never seen: the lag stays unmeasured, and lost answers
    // wait the 30 s a service of unknown lag is given)
    const c0 = ctx;
    await createAsJob(creatorDeps(c0), makeRequisitions(1, `${tag}-warm`)[0]!);
    await waitFor('list lag measured', async () => (await c0.dialects.stored())?.listLagMs !== undefined, 20_000);
    const reqs = makeRequisitions(60, tag);
    for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
    pipeline.sandbox.resetStats();
    pipeline.sandbox.setFaults({ commitThenFail: { rate: 0.5, mode: '502' } });

    // Churn for 8 s: every 4 ms an RFQ of the account closes, completes or a new one arrives. The steps keep to that
    // schedule however late the timer fires (a loaded machine): those overdue follow one another, yielding to I/O
    // (the worker and the sandbox run in this process) between any two. The account's RFQs by state are read from
    // the sandbox every 50 ms (a copy of every RFQ: too slow to read at every step) and kept up to date by the moves.
    let moves = 0;
    let churning = true;
    const churn = (async () => {
      const from = Date.now();
      const until = from + 8_000;
      const byState: Record<'open' | 'closed', number[]> = { open: [], closed: [] };
      let readAt = 0;
      const take = (state: 'open' | 'closed'): number | undefined => {
        const ids = byState[state];
        return ids.splice(Math.floor(Math.random() * ids.length), 1)[0];
      };
      for (let n = 0; Date.now() < until; n++) {
        await new Promise((res) => (n >= (Date.now() - from) / 4 ? setTimeout(res, 4) : setImmediate(res)));
        if (Date.now() - readAt >= 50) {
          const mine = pipeline.sandbox.control.listAll().filter((r) => r.company === COMPANY);
          for (const state of ['open', 'closed'] as const)
            byState[state] = mine.filter((x) => x.state === state).map((x) => x._id);
          readAt = Date.now();
        }
        const step = n % 3;
        if (step === 0) {
          const id = take('open');
          if (id !== undefined) {
            pipeline.sandbox.control.advance(id, 'closed');
            byState.closed.push(id);
            moves++;
          }
        } else if (step === 1) {
          const id = take('closed');
          if (id !== undefined) {
            pipeline.sandbox.control.advance(id, 'completed');
            moves++;
          }
        } else {
          void postOther(`${tag}-new`, n);
        }
      }
      churning = false;
    })();
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    await churn;
    pipeline.sandbox.setFaults({});
    await waitFor('60 jobs completed', async () => (await c.queues.createRfq.getCompletedCount()) === 60, 60_000, 200);

    expect(churning).toBe(false);
    expect(moves).toBeGreaterThan(300); // the lists did change all along
    const stats = pipeline.sandbox.stats();
    expect(stats.commitThenFail).toBeGreaterThanOrEqual(10); // answers were lost, so reconciles did run
    const ours = pipeline.sandbox.control
      .listAll()
      .filter(
        (r) =>
          r.company === COMPANY &&
          r.lines.some(
            (l) =>
              l.external_id?.startsWith(`${tag}-`) &&
              !l.external_id.startsWith(`${tag}-bg`) &&
              !l.external_id.startsWith(`${tag}-warm`) &&
              !l.external_id.startsWith(`${tag}-new`),
          ),
      );
    expect(checkExactlyOnce(ours, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 60 });
    const counts = await ctx.queues.createRfq.getJobCounts('failed', 'wait', 'active', 'delayed');
    expect(counts).toEqual({ failed: 0, wait: 0, active: 0, delayed: 0 });
  }, 120_000);
});

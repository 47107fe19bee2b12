/**
 * The real service's dialect against our friendly one: an account with 300 hand-made RFQs, pages of 10, and 25% of
 * creates committed then answered 502. In both dialects: exactly one RFQ per requisition, the filter form the
 * dialect accepts is the one detected, and the lost answers are settled by shared walks (counted). Then the
 * ambiguous cases of the docs dialect (no external_id echo): each parks the requisition, `resolve` settles it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps, enqueueCreateRfq, reconcilerOf } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { runResolveCommand } from '../../app/commands/resolve.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { createRfqOnce } from '../../src/creation/rfq-creator.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineConfig, pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import { toCreateRfqRequest } from '../../src/requisitions/index.ts';

const redis = useRedis();
const COMPANY = 'Sandbox Buyer Ltd';

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  await sandbox?.stop();
  worker = undefined;
  ctx = undefined;
  sandbox = undefined;
});

describe('dialects: lost answers in an account full of hand-made RFQs', () => {
  it.each([
    ['friendly', 'lower', 'yes'],
    ['docs', 'capitalised', 'no'],
  ] as const)(
    '%s dialect: 100 requisitions, a quarter of the answers lost -> exactly 100 RFQs; filter %s detected, echo %s learned',
    async (dialect, form, echo) => {
      sandbox = await startSandbox({ seed: 7, dialect, existing: 300, pageSize: 10 });
      const env = {
        redisUrl: redis.url,
        baseUrl: sandbox.url,
        token: 'sandbox-token',
        prefix: freshPrefix(),
        account: dialect,
      };
      ctx = await pipelineContext(env);
      const reqs = makeRequisitions(100, `dia${dialect}`);
      for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
      sandbox.resetStats();
      sandbox.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
      worker = startWorker(ctx, { queues: ['createRfq'] });
      const c = ctx;
      await waitFor(
        '100 jobs completed',
        async () => (await c.queues.createRfq.getCompletedCount()) === 100,
        80_000,
        200,
      );

      const stats = sandbox.stats();
      const ours = sandbox.control.listAll().filter((r) => r.company === COMPANY && r.lines.some((l) => l.external_id));
      expect(stats.commitThenFail).toBeGreaterThanOrEqual(10);
      expect(checkExactlyOnce(ours, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 100 });
      expect(stats.rfqsCreated).toBe(100);
      const store = createIdempotencyStore(ctx.redis, ctx.keys);
      const records = await Promise.all((await store.list(0, 1000)).map((id) => store.get(id)));
      expect(records.filter((r) => r?.state === 'created')).toHaveLength(100);
      expect(records.filter((r) => r?.how === 'adopted')).toHaveLength(stats.commitThenFail);

      const d = await ctx.dialects.get();
      expect(d.filter).toBe(form);
      expect(d.filterBasis).toBe('detected');
      expect(d.unfiltered).toBe('yes');
      expect(d.echo).toBe(echo);
      expect(d.detail).toBe(dialect === 'docs' ? 'yes' : 'no');
      const walks = await reconcilerOf(ctx).stats();
      const calls = Object.values(stats.calls).reduce(
        (n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0),
        0,
      );
      // one walk serves many lost answers: far fewer walks than lost answers
      expect(walks.complete).toBeGreaterThanOrEqual(1);
      expect(walks.started).toBeLessThan(stats.commitThenFail);
      console.log(
        `${dialect}: ${calls} requests for 100 requisitions (${(calls / 100).toFixed(2)}/requisition), ${stats.commitThenFail} lost answers, walks ${walks.started} (${walks.complete} complete, ${walks.pages} pages)`,
      );
    },
  );
});

/** A first create of the account, answered: the list lag is measured on it (until then lost answers wait 30 s). */
async function warmUp(c: AppContext): Promise<void> {
  await createRfqOnce(creatorDeps(c), makeRequisitions(1, `warm${Date.now()}`)[0]!);
  await waitFor('list lag measured', async () => (await c.dialects.stored())?.listLagMs !== undefined, 20_000);
}

describe('ambiguous matches park the requisition; resolve settles it', () => {
  it('a hand-made twin of what was posted: parked, nothing posted; resolve --rfq records it, resolve --post posts once', async () => {
    sandbox = await startSandbox({ seed: 9, dialect: 'docs', existing: 20, pageSize: 10 });
    const env = {
      redisUrl: redis.url,
      baseUrl: sandbox.url,
      token: 'sandbox-token',
      prefix: freshPrefix(),
      account: 'amb',
    };
    ctx = await pipelineContext(env);
    await warmUp(ctx);
    const [a, b, c2] = makeRequisitions(3, 'twin');
    // hand-made twins: the same content made in the web UI before our POST (no external_ids)
    for (const r of [a!, b!]) {
      const body = toCreateRfqRequest(r);
      const res = await fetch(`${sandbox.url}/v1/rfqs`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, lines: body.lines.map(({ external_id: _drop, ...l }) => l) }),
      });
      expect(res.status).toBe(201);
    }
    sandbox.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
    for (const r of [a!, b!, c2!]) await enqueueCreateRfq(ctx.queues, r);
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const cx = ctx;
    await waitFor('3 jobs completed', async () => (await cx.queues.createRfq.getCompletedCount()) === 3, 60_000, 200);
    sandbox.setFaults({});

    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const idOf = (r: typeof a) => `generic/${r!.key}`;
    // a and b: our RFQ and the hand-made twin both match -> parked; c (no twin) adopted
    expect((await store.get(idOf(a)))?.state).toBe('undecided');
    expect((await store.get(idOf(b)))?.state).toBe('undecided');
    expect((await store.get(idOf(c2)))?.state).toBe('created');
    expect((await store.get(idOf(a)))?.reason).toMatch(/2 RFQs match/);
    const posted = sandbox.stats().rfqsCreated;
    expect(posted).toBe(6); // the warm-up, 2 twins, 3 POSTs: nothing posted again

    const ourA = sandbox.control
      .listAll()
      .find((r) => r.lines.some((l) => l.external_id === a!.lines[0]!.external_id))!;
    const config = pipelineConfig(env);
    expect(await runResolveCommand(config, silentLogger, idOf(a), { rfq: ourA._id })).toBe(0);
    expect(await store.get(idOf(a))).toMatchObject({ state: 'created', rfqId: ourA._id });
    // b: the operator says neither is it (e.g. both were deleted by hand): post once more
    expect(await runResolveCommand(config, silentLogger, idOf(b), { post: true })).toBe(0);
    await waitFor('b created', async () => (await store.get(idOf(b)))?.state === 'created', 30_000, 200);
    expect(sandbox.stats().rfqsCreated).toBe(7);
    expect(await runResolveCommand(config, silentLogger, idOf(c2), { post: true })).toBe(1); // not waiting for a decision
  });

  it('one RFQ content for two requisitions (same fingerprint): never one RFQ adopted for both', async () => {
    sandbox = await startSandbox({ seed: 11, dialect: 'docs', pageSize: 10 });
    const env = {
      redisUrl: redis.url,
      baseUrl: sandbox.url,
      token: 'sandbox-token',
      prefix: freshPrefix(),
      account: 'amb2',
    };
    ctx = await pipelineContext(env);
    await warmUp(ctx);
    const [x] = makeRequisitions(1, 'same');
    const y = {
      ...x!,
      key: `${x!.key}-copy`,
      lines: x!.lines.map((l) => ({ ...l, external_id: `${l.external_id}-copy` })),
    };
    sandbox.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
    await enqueueCreateRfq(ctx.queues, x!);
    await enqueueCreateRfq(ctx.queues, y);
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const cx = ctx;
    await waitFor('2 jobs completed', async () => (await cx.queues.createRfq.getCompletedCount()) === 2, 60_000, 200);
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const rx = await store.get(`generic/${x!.key}`);
    const ry = await store.get(`generic/${y.key}`);
    // whichever walk saw both pending parks them; one that saw one adopts it, and the other then finds its own
    for (const r of [rx, ry]) expect(['undecided', 'created']).toContain(r?.state);
    if (rx?.state === 'created' && ry?.state === 'created') expect(rx.rfqId).not.toBe(ry.rfqId);
    expect(sandbox.stats().rfqsCreated).toBe(3);
  });
});

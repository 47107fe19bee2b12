/**
 * The create-rfq pipeline against real Redis and the sandbox over HTTP: one RFQ per requisition, duplicates of
 * work collapse, re-exports report changes and add supplementary RFQs, conflicts are rejected and listed, a refused
 * token pauses instead of failing, and an evicting Redis is refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRfqJobId, enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { RedisUnfitError } from '../../src/core/errors.ts';
import { createLogger, silentLogger } from '../../src/core/logger.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { listFailed, retryFailed } from '../../app/commands/failed-jobs.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { checkRedis } from '../../src/redis/redis-checks.ts';
import { tokenFingerprint } from '../../src/account/token-source.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext, type PipelineEnv } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import { waitForQueue } from '../helpers/job-counts.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { jobId } from '../../src/queues/index.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 50 } });

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  worker = undefined;
  ctx = undefined;
});

const env = (extra: Record<string, string> = {}): PipelineEnv => pipeline.freshEnv(extra);

const rfqsOf = (tag: string) =>
  pipeline.sandbox.control
    .listAll()
    .filter((r) => r.title.includes(` ${tag} `) || r.lines.some((l) => l.external_id?.startsWith(`${tag}-`)));

describe('job ids', () => {
  it('are deterministic, never contain ":" and are never all digits', () => {
    expect(jobId('create', 'generic', 'PR-1', 'abc')).toBe('create~generic~PR-1~abc');
    expect(jobId('a:b')).not.toContain(':');
    expect(jobId('a:b')).toBe(jobId('a:b'));
    expect(jobId('a:b')).not.toBe(jobId('a;b'));
    expect(jobId(12345)).toBe('#12345');
    expect(jobId('x'.repeat(500)).length).toBeLessThan(80);
  });
});

describe('create-rfq', () => {
  it('creates one RFQ per requisition, and the same requisition enqueued twice is one job', async () => {
    ctx = await pipelineContext(env());
    const reqs = makeRequisitions(20, 'happy');
    for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
    for (const r of reqs.slice(0, 5)) await enqueueCreateRfq(ctx.queues, { ...r, sourceFile: 'other.csv' });
    expect(await ctx.queues.createRfq.count()).toBe(20);
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    await waitFor('20 completed', async () => (await c.queues.createRfq.getCompletedCount()) === 20, 20_000);
    const check = checkExactlyOnce(rfqsOf('happy'), reqs);
    expect(check).toEqual({ duplicates: [], missing: [], rfqCount: 20 });
    // the RFQ is recorded and tracked
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const rec = await store.get('generic/PR-happy-4');
    expect(rec?.state).toBe('created');
    expect(await ctx.redis.sismember(ctx.keys.trackedRfqs, String(rec?.rfqId))).toBe(1);
  });

  it('reports changed lines of a re-export and puts new lines on a supplementary RFQ, once', async () => {
    ctx = await pipelineContext(env());
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    const [r] = makeRequisitions(1, 'reexp');
    await enqueueCreateRfq(ctx.queues, r!);
    await waitFor('first created', async () => (await c.queues.createRfq.getCompletedCount()) === 1, 10_000);
    const again = {
      ...r!,
      sourceFile: 'later.csv',
      lines: [
        { ...r!.lines[0]!, qty: 99 },
        { external_id: 'reexp-new-1', product_name: 'New thing', qty: 3, row: 9 },
      ],
    };
    await enqueueCreateRfq(ctx.queues, again);
    await enqueueCreateRfq(ctx.queues, { ...again, sourceFile: 'later-again.csv' }); // same content: same job
    await waitFor('re-export done', async () => (await c.queues.createRfq.getCompletedCount()) === 2, 10_000);
    const rfqs = rfqsOf('reexp');
    expect(rfqs).toHaveLength(2);
    expect(rfqs[1]!.lines.map((l) => l.external_id)).toEqual(['reexp-new-1']);
    const rec = await createIdempotencyStore(ctx.redis, ctx.keys).get('generic/PR-reexp-0');
    expect(rec?.changes).toEqual([
      { externalId: 'reexp-0-0', kind: 'changed', fields: [{ field: 'qty', was: 1, now: 99 }] },
    ]);
    expect(rec?.supplements).toHaveLength(1);
    // a third export with the same new line adds nothing more
    await enqueueCreateRfq(ctx.queues, { ...again, title: 'retitled' });
    await waitFor('third done', async () => (await c.queues.createRfq.getCompletedCount()) === 3, 10_000);
    expect(rfqsOf('reexp')).toHaveLength(2);
  });

  it('rejects a requisition whose external_ids belong to another one, lists it as failed, and retries it on request', async () => {
    ctx = await pipelineContext(env());
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    const [a] = makeRequisitions(1, 'confl');
    await enqueueCreateRfq(ctx.queues, a!);
    await waitFor('a created', async () => (await c.queues.createRfq.getCompletedCount()) === 1, 10_000);
    const b = {
      ...a!,
      key: 'PR-other',
      lines: [...a!.lines, { external_id: 'confl-b-1', product_name: 'B', qty: 1, row: 5 }],
    };
    await enqueueCreateRfq(ctx.queues, b);
    await waitFor('b failed', async () => (await c.queues.createRfq.getFailedCount()) === 1, 10_000);
    const failed = await listFailed(ctx);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.ref).toBe(`create-rfq:${createRfqJobId(b)}`);
    expect(failed[0]!.subject).toContain('generic/PR-other');
    expect(failed[0]!.failedReason).toMatch(/confl-0-0 \(held by generic\/PR-confl-0\)/);
    expect(rfqsOf('confl')).toHaveLength(1);
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    expect((await store.get('generic/PR-other'))?.state).toBe('rejected');
    // the claim table is untouched: confl-b-1 is not held by the rejected requisition
    expect((await store.holders(['confl-b-1']))[0]).toBeUndefined();
    const res = await retryFailed(ctx, failed[0]!.ref);
    expect(res.retried).toEqual([failed[0]!.ref]);
    await waitFor(
      'b failed again',
      async () =>
        (await c.queues.createRfq.getFailedCount()) === 1 && (await c.queues.createRfq.getWaitingCount()) === 0,
      10_000,
    );
    expect(rfqsOf('confl')).toHaveLength(1);
  });

  it('records a permanently refused requisition as rejected, lists the job as failed, and never posts it again', async () => {
    ctx = await pipelineContext(env());
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    const [r] = makeRequisitions(1, 'perm');
    const bad = { ...r!, lines: [{ ...r!.lines[0]!, product_name: 'x'.repeat(600) }] }; // the service takes 500 at most
    pipeline.sandbox.resetStats();
    await enqueueCreateRfq(ctx.queues, bad);
    await waitFor('failed', async () => (await c.queues.createRfq.getFailedCount()) === 1, 10_000);
    const [failed] = await listFailed(ctx);
    expect(failed!.failedReason).toMatch(/product_name/);
    expect(failed!.attemptsMade).toBe(1); // not retried blindly
    const rec = await createIdempotencyStore(ctx.redis, ctx.keys).get('generic/PR-perm-0');
    expect(rec?.state).toBe('rejected');
    expect(rec?.reason).toMatch(/product_name/);
    expect(pipeline.sandbox.stats().calls.createRfq).toBeUndefined();
  });

  it('pauses creation on a refused token, keeps the job, and resumes when the token file is replaced', async () => {
    const dir = tempDir('rfq-token-');
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'wrong-token');
    const logged: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          logged.push(JSON.parse(line) as { level: number; msg: string });
        cb();
      },
    });
    ctx = await pipelineContext(
      env({ SOURCING_TOKEN_FILE: tokenFile }),
      createLogger({ level: 'info', destination: sink, pretty: false }),
    );
    worker = startWorker(ctx, { queues: ['createRfq'] });
    const c = ctx;
    const reqs = makeRequisitions(3, 'auth');
    for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
    await waitFor('paused', async () => (await c.authGate.status()).paused, 10_000);
    expect(await ctx.queues.createRfq.isPaused()).toBe(true);
    expect(await ctx.queues.poll.isPaused()).toBe(true);
    expect(await ctx.queues.createRfq.getFailedCount()).toBe(0);
    expect(rfqsOf('auth')).toHaveLength(0);
    // every job that met the refusal is back in the queue (none running): however many did, one line
    await waitForQueue([c.queues.createRfq], ([q]) => q!.active === 0);
    const errors = logged.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1); // ONE clear line, however many jobs met the refusal
    expect(errors[0]!.msg).toMatch(/AUTH REFUSED.*paused.*SOURCING_TOKEN_FILE/);
    expect(JSON.stringify(logged)).not.toContain('wrong-token');
    writeFileSync(tokenFile, pipeline.token);
    await waitFor('resumed', async () => !(await c.authGate.status()).paused, 10_000);
    await waitFor('3 created', async () => (await c.queues.createRfq.getCompletedCount()) === 3, 30_000);
    expect(checkExactlyOnce(rfqsOf('auth'), reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 3 });
    expect(await ctx.queues.createRfq.getFailedCount()).toBe(0);
  });

  it('resumes at start when the token that was refused has been replaced; with the same token, stays paused while the service refuses it', async () => {
    const e = env();
    const setup = await pipelineContext(e);
    await setup.redis.hset(setup.keys.authPause, {
      reason: 'HTTP 401',
      since: String(Date.now()),
      tokenFingerprint: tokenFingerprint('old-token'),
    });
    await setup.queues.createRfq.pause();
    await closeWorkerContext(setup);
    ctx = await pipelineContext(e); // a restart with a new token
    expect(await ctx.authGate.status()).toEqual({ paused: false });
    expect(await ctx.queues.createRfq.isPaused()).toBe(false);
    await ctx.redis.hset(ctx.keys.authPause, {
      reason: 'HTTP 401',
      since: String(Date.now()),
      tokenFingerprint: tokenFingerprint(pipeline.token),
    });
    pipeline.sandbox.setFaults({ refuseTokens: true });
    try {
      await ctx.authGate.check();
      expect(ctx.authGate.isPaused()).toBe(true);
      expect((await ctx.authGate.status()).lastCheck?.result).toBe('still refused (HTTP 401)');
    } finally {
      pipeline.sandbox.setFaults({});
    }
  });

  it('closes within its time limit even while a create is hanging', async () => {
    ctx = await pipelineContext(env());
    pipeline.sandbox.setFaults({ latencyMs: 10_000 });
    try {
      worker = startWorker(ctx, { queues: ['createRfq'] });
      await enqueueCreateRfq(ctx.queues, makeRequisitions(1, 'hang')[0]!);
      const c = ctx;
      await waitFor('job active', async () => (await c.queues.createRfq.getActiveCount()) === 1, 5_000, 20);
      const t0 = Date.now();
      await worker.close(300);
      // The create hangs for 10 s: closing must not wait for it (margin for a loaded machine, far below 10 s).
      expect(Date.now() - t0).toBeLessThan(5_000);
    } finally {
      pipeline.sandbox.setFaults({});
    }
  });

  it('refuses an evicting Redis with a message that says how to fix it', async () => {
    const r = new Redis(pipeline.redisUrl);
    try {
      await r.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const err = await checkRedis(r, silentLogger).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RedisUnfitError);
      expect((err as Error).message).toMatch(/allkeys-lru.*noeviction/s);
    } finally {
      await r.config('SET', 'maxmemory-policy', 'noeviction');
      r.disconnect();
    }
  });
});

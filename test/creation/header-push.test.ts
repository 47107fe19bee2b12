/**
 * A re-export that changes an existing RFQ's title, dates or description (docs/architecture.md#re-exports):
 * pushed with PUT /v1/rfqs/{id} when PUSH_HEADER_CHANGES=true and the service has the call (docs dialect), learned
 * absent where it has not (friendly dialect: 405), and only reported when the setting is off. Lines never change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRfqJobId, enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import type { CreateOutcome } from '../../src/creation/settle-existing.ts';

const redis = useRedis();

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  await sandbox?.stop();
  worker = ctx = sandbox = undefined;
});

/** Create `r`, then send its re-export `again` and return the re-export's outcome. */
async function createThenReexport(
  dialect: 'docs' | 'friendly',
  push: boolean,
  r: Requisition,
  again: Requisition,
): Promise<CreateOutcome> {
  sandbox = await startSandbox({ seed: 3, dialect });
  ctx = await pipelineContext({
    redisUrl: redis.url,
    baseUrl: sandbox.url,
    token: 'sandbox-token',
    prefix: freshPrefix(),
    extra: { PUSH_HEADER_CHANGES: String(push) },
  });
  worker = startWorker(ctx, { queues: ['createRfq'] });
  const c = ctx;
  for (const req of [r, again]) {
    await enqueueCreateRfq(c.queues, req);
    await waitFor(
      'job done',
      async () => (await c.queues.createRfq.getJob(createRfqJobId(req)))?.finishedOn !== undefined,
      20_000,
      50,
    );
  }
  return (await c.queues.createRfq.getJob(createRfqJobId(again)))!.returnvalue as CreateOutcome;
}

function reexport(r: Requisition): Requisition {
  return {
    ...r,
    title: `${r.title} (revised)`,
    due_date: r.due_date + 86_400_000,
    description: 'Delivery to gate 4',
    sourceFile: 'again.csv',
  };
}

describe('header changes of a re-export', () => {
  it('docs dialect, PUSH_HEADER_CHANGES=true: title, due date and description are pushed with the edit call; lines untouched; the edit call learned', async () => {
    const [r] = makeRequisitions(1, 'hdr');
    const out = await createThenReexport('docs', true, r!, reexport(r!));
    expect(out.status).toBe('existing');
    expect(out.header).toMatchObject({ pushed: true });
    expect(out.header!.changes.map((c) => c.field).sort()).toEqual(['description', 'due_date', 'title']);
    const [rfq] = sandbox!.control.listAll();
    expect(rfq).toMatchObject({
      title: `${r!.title} (revised)`,
      due_date: String(r!.due_date + 86_400_000),
      description: 'Delivery to gate 4',
    });
    expect(sandbox!.control.listAll()).toHaveLength(1);
    expect(sandbox!.stats().calls.editRfq).toEqual({ 201: 1 });
    expect((await ctx!.dialects.get()).edit).toBe('yes');
    const rec = await createIdempotencyStore(ctx!.redis, ctx!.keys).get(`generic/${r!.key}`);
    expect(rec?.header?.title).toBe(`${r!.title} (revised)`);
    expect(rec?.headerChanges?.pushed).toBe(true);
  });

  it('the same re-export again is not pushed twice (the pushed header is the new baseline)', async () => {
    const [r] = makeRequisitions(1, 'hdr2');
    const again = reexport(r!);
    await createThenReexport('docs', true, r!, again);
    // a third export with the revised header and one more changed field: only that field is pushed
    const third = { ...again, title: 'Third title', sourceFile: 'third.csv' };
    await enqueueCreateRfq(ctx!.queues, third);
    const c = ctx!;
    await waitFor(
      'third done',
      async () => (await c.queues.createRfq.getJob(createRfqJobId(third)))?.finishedOn !== undefined,
      20_000,
      50,
    );
    const out = (await c.queues.createRfq.getJob(createRfqJobId(third)))!.returnvalue as CreateOutcome;
    expect(out.header?.changes).toEqual([{ field: 'title', was: `${r!.title} (revised)`, now: 'Third title' }]);
    expect(sandbox!.stats().calls.editRfq).toEqual({ 201: 2 });
  });

  it('friendly dialect (no edit call): the 405 is learned, the change is reported, not pushed', async () => {
    const [r] = makeRequisitions(1, 'hdr3');
    const out = await createThenReexport('friendly', true, r!, reexport(r!));
    expect(out.header).toMatchObject({ pushed: false });
    expect(out.header!.reason).toMatch(/no edit call \(HTTP 405\)/);
    expect((await ctx!.dialects.get()).edit).toBe('no');
    expect(sandbox!.control.listAll()[0]!.title).toBe(r!.title);
  });

  it('PUSH_HEADER_CHANGES off (the default): reported with the fields, nothing sent', async () => {
    const [r] = makeRequisitions(1, 'hdr4');
    const out = await createThenReexport('docs', false, r!, reexport(r!));
    expect(out.header).toMatchObject({ pushed: false, reason: expect.stringMatching(/PUSH_HEADER_CHANGES is off/) });
    expect(out.header!.changes).toContainEqual({
      field: 'due_date',
      was: String(r!.due_date),
      now: String(r!.due_date + 86_400_000),
    });
    expect(sandbox!.stats().calls.editRfq).toBeUndefined();
    expect(sandbox!.control.listAll()[0]!.title).toBe(r!.title);
  });
});

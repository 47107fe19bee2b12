/**
 * A job whose payload its queue's schema refuses (written by another version, or by hand) goes to the failed list
 * at once, named E_JOB_PAYLOAD with its queue, its job id and the field at fault, and the worker goes on: real Redis,
 * the sandbox over HTTP, the project's worker on every queue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { listFailed } from '../../app/commands/failed-jobs.ts';
import { contentHashOf } from '../../src/creation/rfq-creator.ts';
import { QUEUE_KEYS, enqueueCreateRfq, enqueuePollNow, type QueueKey } from '../../src/queues/index.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const pipeline = usePipeline();

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  worker = ctx = undefined;
});

/** One bad job per queue (and a job name the poll queue does not know), with the field each must be failed for. */
const BAD: Array<{ key: QueueKey; name: string; id: string; data: unknown; field: string }> = [
  { key: 'ingest', name: 'ingest', id: 'bad-ingest', data: { sha256: 'xyz', processingName: '../x' }, field: 'sha256' },
  { key: 'ingest', name: 'ingest', id: 'bad-ingest-null', data: null, field: '(payload)' },
  { key: 'createRfq', name: 'create-rfq', id: 'bad-create-null', data: null, field: '(payload)' },
  {
    key: 'createRfq',
    name: 'create-rfq',
    id: 'bad-create-lines',
    data: { requisition: { ...makeRequisitions(1, 'bad')[0]!, lines: [] } },
    field: 'requisition.lines',
  },
  { key: 'poll', name: 'poll', id: 'bad-poll', data: { slot: 'NOT A SLOT', scheduledAt: 1 }, field: 'slot' },
  { key: 'poll', name: 'overview', id: 'bad-overview', data: { requestedAt: 'soon' }, field: 'requestedAt' },
  { key: 'poll', name: 'rewrite', id: 'bad-name', data: {}, field: '(job name)' },
  {
    key: 'quotations',
    name: 'quotations',
    id: 'bad-quotations',
    data: { rfqId: 'x', reason: 'closed' },
    field: 'rfqId',
  },
  { key: 'comparison', name: 'comparison', id: 'bad-comparison', data: { rfqId: 5 }, field: 'version' },
  { key: 'notify', name: 'notify', id: 'bad-notify', data: { route: 'ops' }, field: 'message' },
];

describe('a payload its schema refuses', () => {
  it('fails its job for good, named (queue, job id, field), and the worker runs the good jobs after it', async () => {
    ctx = await pipelineContext(pipeline.freshEnv());
    const c = ctx;
    worker = startWorker(ctx, { queues: QUEUE_KEYS });
    for (const b of BAD) await c.queues[b.key].add(b.name, b.data, { jobId: b.id });

    await waitFor(
      'every bad job failed',
      async () => (await listFailed(c)).length === BAD.length,
      20_000,
      50,
      async () => JSON.stringify((await listFailed(c)).map((f) => [f.id, f.failedReason])),
    );
    const failed = await listFailed(c);
    for (const b of BAD) {
      const f = failed.find((x) => x.id === b.id);
      const queue = c.queues[b.key].name;
      expect(f?.queue, b.id).toBe(queue);
      expect(f?.failedReason, b.id).toContain(`${queue} job ${b.id}: invalid payload (E_JOB_PAYLOAD): ${b.field}: `);
      expect(f?.attemptsMade, b.id).toBe(1); // never retried: the same payload fails the same way
    }
    expect(worker.workers.every((w) => w.isRunning())).toBe(true);

    // the same worker goes on: a requisition is created and a poll runs
    const [r] = makeRequisitions(1, 'good');
    const created = await enqueueCreateRfq(c.queues.createRfq, r!, contentHashOf(r!));
    const polled = await enqueuePollNow(c);
    await waitFor(
      'the good jobs done',
      async () =>
        (await c.queues.createRfq.getJobState(created.id!)) === 'completed' &&
        (await c.queues.poll.getJobState(polled)) === 'completed',
      20_000,
    );
    expect(pipeline.sandbox.control.listAll().filter((x) => x.title.includes(' good '))).toHaveLength(1);
    expect(await listFailed(c)).toHaveLength(BAD.length);
  });
});

/**
 * A queue is added with one file (test/queues/echo-queue.ts: name, schema, job id, enqueue, options, processor) and
 * one registration line: the project's createQueuesOf opens it, the project's worker runs it beside the registered
 * queues, its payloads are checked by its schema (a refused one failed, named). Real Redis, real BullMQ workers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, type ExtraQueue, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { createQueuesOf } from '../../src/redis/queues.ts';
import { QUEUE_MODULES } from '../../src/queues/index.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { echoJobId, echoProcessor, echoQueue, enqueueEcho } from './echo-queue.ts';

const pipeline = usePipeline();

// the one registration line
const added: ExtraQueue[] = [{ module: echoQueue, processor: async () => echoProcessor }];

let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
let queues: ReturnType<typeof createQueuesOf> | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  await queues?.close();
  if (ctx) await closeWorkerContext(ctx);
  worker = ctx = queues = undefined;
});

describe('adding a queue', () => {
  it('one module and one registration line: opened, worked, its payloads checked, its failures named', async () => {
    ctx = await pipelineContext(pipeline.freshEnv());
    const c = ctx;
    const registry = [...QUEUE_MODULES, ...added.map((a) => a.module)];
    expect(new Set(registry.map((m) => m.name)).size).toBe(registry.length); // names stay unique
    queues = createQueuesOf(
      added.map((a) => a.module),
      c.connection,
      c.bullPrefix,
      { attempts: 3, backoffMs: 100 },
    );
    const echo = queues.byKey.echo!;
    expect(echo.name).toBe('echo');
    worker = startWorker(c, { queues: ['poll'], extra: added });

    const id = await enqueueEcho(echo, { text: 'hello' });
    expect(id).toBe(echoJobId('hello'));
    await echo.add('echo', { text: 42 }, { jobId: 'bad-echo' });
    await waitFor(
      'the echo jobs finished',
      async () => (await echo.getJobState(id)) === 'completed' && (await echo.getJobState('bad-echo')) === 'failed',
    );
    const done = await echo.getJob(id);
    expect(done?.returnvalue).toBe('HELLO');
    expect(done?.opts.attempts).toBe(2); // the module's options
    const failed = await echo.getFailed();
    expect(failed.map((f) => [f.id, f.failedReason, f.attemptsMade])).toEqual([
      [
        'bad-echo',
        'echo job bad-echo: invalid payload (E_JOB_PAYLOAD): text: Invalid input: expected string, received number',
        1,
      ],
    ]);
    expect(worker.workers.every((w) => w.isRunning())).toBe(true);
  });
});

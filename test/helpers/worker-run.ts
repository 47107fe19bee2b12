/**
 * One sandbox (in this process) and one in-process worker context running the project's BullMQ workers on the
 * queues given, per test; stopped (workers, context, sandbox, data folder) after it. For tests that drive creation
 * and tracking together against a sandbox set up for that test alone.
 */
import { afterEach } from 'vitest';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import type { Logger } from '../../src/core/logger.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { makeDataDir, type DataDir } from './files.ts';
import { pipelineContext } from './worker-env.ts';
import { freshPrefix } from './redis.ts';
import type { QueueKey } from '../../src/queues/index.ts';

export interface WorkerRunOptions {
  account: string;
  queues: QueueKey[];
  logger?: Logger;
  /** Settings beside those of pipelineEnvVars. */
  extra?: Record<string, string>;
  /** A data folder of its own (workbooks, awards); default: none (the shared one of pipelineEnvVars). */
  data?: boolean;
}

export function useWorkerRun(redisUrl: () => string): {
  start(sandboxOpts: SandboxOptions, o: WorkerRunOptions): Promise<{ sandbox: Sandbox; ctx: AppContext }>;
} {
  let ctx: AppContext | undefined;
  let worker: RunningWorker | undefined;
  let sandbox: Sandbox | undefined;
  let data: DataDir | undefined;
  afterEach(async () => {
    await worker?.close(5_000);
    if (ctx) await closeWorkerContext(ctx);
    await sandbox?.stop();
    await data?.remove();
    worker = ctx = sandbox = data = undefined;
  });
  return {
    async start(sandboxOpts, o) {
      sandbox = await startSandbox(sandboxOpts);
      if (o.data) data = await makeDataDir(o.account);
      const env = {
        redisUrl: redisUrl(),
        baseUrl: sandbox.url,
        token: 'sandbox-token',
        prefix: freshPrefix(),
        account: o.account,
        ...(data ? { dir: data.root } : {}),
        ...(o.extra ? { extra: o.extra } : {}),
      };
      ctx = await pipelineContext(env, o.logger);
      worker = startWorker(ctx, { queues: o.queues });
      return { sandbox, ctx };
    },
  };
}

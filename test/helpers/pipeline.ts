/**
 * The pipeline harness, for tests of the whole loop or of one stage on real parts: a real redis-server and the
 * sandbox over real HTTP (one per file), a fresh data folder and REDIS_PREFIX per test or per file (`usePipeline`),
 * and what a test starts through it (worker children, worker contexts), stopped after it. Beside it, by stage:
 * worker-env.ts (a worker's settings), worker-child.ts (`rfq-sync worker` as a child), job-counts.ts (waiting on the
 * queues), fixtures.ts (requisitions, generic CSVs), creation.ts, intake.ts, polling.ts, files.ts.
 */
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Logger } from '../../src/core/logger.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import type { EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import type { QueueKey } from '../../src/queues/index.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { useCleanups } from './cleanups.ts';
import { makeDataDir, type DataDir } from './files.ts';
import { freshPrefix, useRedis } from './redis.ts';
import { useSandbox } from './sandbox.ts';
import { makeTempDir } from './temp-dir.ts';
import { spawnWorker, type SpawnWorkerOptions, type WorkerChild } from './worker-child.ts';
import { pipelineContext, serviceEnv, type PipelineEnv } from './worker-env.ts';

export interface UsePipelineOptions {
  /** Options of the sandbox (seed 42 unless given); `false`: no sandbox. */
  sandbox?: SandboxOptions | false;
  /** Redis with AOF (restart proofs). Default false. */
  appendonly?: boolean;
  /** `test` (default): a fresh data folder and REDIS_PREFIX per test; `file`: one for the whole file. */
  scope?: 'test' | 'file';
  /** Name part of the data folder. Default `pipeline`. */
  tag?: string;
}

export interface Pipeline {
  readonly redis: EmbeddedRedis;
  readonly redisUrl: string;
  readonly sandbox: Sandbox;
  readonly sandboxUrl: string;
  /** The sandbox's first account's token. */
  readonly token: string;
  /** This test's (or file's) REDIS_PREFIX. */
  readonly prefix: string;
  /** This test's (or file's) data folder. */
  readonly data: DataDir;
  /**
   * A scratch folder outside the data folder (on the same file system, so a rename into the inbox is atomic): files
   * written there whole and moved in, as an ERP export should arrive. Made on first use, removed with the data folder.
   */
  readonly staging: string;
  /** The environment of a whole worker (serviceEnv) on this pipeline's Redis, sandbox, prefix and data folder. */
  workerEnv(extra?: Record<string, string>): Record<string, string>;
  /** A worker child running `rfq-sync worker`; killed (SIGKILL) at the end of the test or file if still running. */
  spawnWorker(env: Record<string, string>, opts?: SpawnWorkerOptions): Promise<WorkerChild>;
  /** An in-process worker context; closed at the end of the test or file. */
  context(e: PipelineEnv, logger?: Logger): Promise<AppContext>;
  /** The environment of a context on this Redis and sandbox, in a namespace of its own (fresh prefix and account). */
  freshEnv(extra?: Record<string, string>): PipelineEnv;
}

/**
 * Redis (one per file), the sandbox (one per file), a fresh data folder and REDIS_PREFIX per test (or per file), and
 * clean-up of what was started through it: worker children, contexts, the data folder.
 */
export function usePipeline(o: UsePipelineOptions = {}): Pipeline {
  const redis = useRedis({ appendonly: o.appendonly ?? false });
  const sandbox = o.sandbox === false ? undefined : useSandbox(o.sandbox ?? {});
  const scope = o.scope ?? 'test';
  let prefix: string | undefined;
  let data: DataDir | undefined;
  let staging: string | undefined;
  const children = new Set<WorkerChild>();
  const contexts = new Set<AppContext>();
  const setUp = async () => {
    prefix = freshPrefix();
    data = await makeDataDir(o.tag ?? 'pipeline');
  };
  const tearDown = async () => {
    await Promise.all([...children].map((c) => c.kill('SIGKILL')));
    children.clear();
    await Promise.all([...contexts].map((c) => closeWorkerContext(c).catch(() => undefined)));
    contexts.clear();
    await data?.remove();
    data = undefined;
    if (staging) await rm(staging, { recursive: true, force: true });
    staging = undefined;
  };
  if (scope === 'test') {
    beforeEach(setUp);
    afterEach(tearDown);
  } else {
    beforeAll(setUp);
    afterAll(tearDown);
  }
  const noSandbox = (): never => {
    throw new Error('usePipeline({ sandbox: false }) has no sandbox');
  };
  const self: Pipeline = {
    get redis() {
      return redis.redis;
    },
    get redisUrl() {
      return redis.url;
    },
    get sandbox() {
      return sandbox?.sandbox ?? noSandbox();
    },
    get sandboxUrl() {
      return sandbox?.url ?? noSandbox();
    },
    get token() {
      return sandbox?.token ?? noSandbox();
    },
    get prefix() {
      if (!prefix) throw new Error('no prefix yet (use inside a test)');
      return prefix;
    },
    get data() {
      if (!data) throw new Error('no data folder yet (use inside a test)');
      return data;
    },
    get staging() {
      if (!data) throw new Error('no staging folder yet (use inside a test)');
      // made on first use: most tests drop their files straight into the inbox
      staging ??= makeTempDir(`rfq-sync-${o.tag ?? 'pipeline'}-staging-`);
      return staging;
    },
    workerEnv(extra = {}) {
      const { redisUrl, sandboxUrl, token } = self;
      return serviceEnv({ redisUrl, baseUrl: sandboxUrl, token, prefix: self.prefix, data: self.data, extra });
    },
    async spawnWorker(env, opts) {
      const child = await spawnWorker(env, opts);
      children.add(child);
      void child.exited.then(() => children.delete(child));
      return child;
    },
    async context(e, logger) {
      const ctx = await pipelineContext(e, logger);
      contexts.add(ctx);
      return ctx;
    },
    freshEnv(extra = {}) {
      return {
        redisUrl: redis.url,
        baseUrl: sandbox?.url ?? noSandbox(),
        token: sandbox?.token ?? noSandbox(),
        prefix: freshPrefix(),
        account: freshPrefix(),
        extra,
      };
    },
  };
  return self;
}

/**
 * A sandbox, worker contexts and in-process workers a test starts itself (its own sandbox options, say), each stopped
 * after the test, the last started first (a worker before its context, a context before the sandbox).
 */
export function useOwnParts(): {
  sandbox(o: SandboxOptions): Promise<Sandbox>;
  context(e: PipelineEnv, logger?: Logger): Promise<AppContext>;
  worker(ctx: AppContext, queues: QueueKey[]): RunningWorker;
} {
  const cleanups = useCleanups();
  return {
    async sandbox(o) {
      const sb = await startSandbox({ seed: 42, ...o });
      cleanups.push(() => sb.stop());
      return sb;
    },
    async context(e, logger) {
      const ctx = await pipelineContext(e, logger);
      cleanups.push(() => closeWorkerContext(ctx));
      return ctx;
    },
    worker(ctx, queues) {
      const w = startWorker(ctx, { queues });
      cleanups.push(() => w.close(5_000));
      return w;
    },
  };
}

/**
 * An empty mapping folder beside this test's data folder, and the environment of a whole worker (serviceEnv) that
 * reads its profiles from there.
 */
export function withOwnMappings(
  p: Pipeline,
  extra: Record<string, string> = {},
): { mappings: string; env: Record<string, string> } {
  const mappings = join(p.data.jail, 'mappings');
  mkdirSync(mappings);
  return { mappings, env: p.workerEnv({ MAPPINGS_DIR: mappings, ...extra }) };
}

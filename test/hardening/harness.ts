/**
 * The pieces every pipeline-level hardening test needs: a data folder, the environment of a worker, a worker child
 * process (fixtures/service-process.ts) that can be SIGKILLed and started again, and waits on the pipeline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { PACKAGE_ROOT } from '../../src/config.ts';
import { redisOptionsFromUrl } from '../../src/pipeline/context.ts';
import {
  bullPrefix,
  QUEUE_KEYS,
  QUEUE_NAMES,
  type QueueKey,
  type RedisConnectionOptions,
} from '../../src/redis/queues.ts';

const SERVICE = fileURLToPath(new URL('./fixtures/service-process.ts', import.meta.url));

export interface DataDir {
  /** A fresh temp dir holding only `data/` (so anything written beside it is a path escape). */
  jail: string;
  root: string;
  inbox: string;
  processing: string;
  archive: string;
  failed: string;
  outbox: string;
  reports: string;
  remove(): Promise<void>;
}

export async function makeDataDir(tag: string): Promise<DataDir> {
  const jail = await mkdtemp(join(tmpdir(), `rfq-sync-${tag}-`));
  const root = join(jail, 'data');
  const d = {
    jail,
    root,
    inbox: join(root, 'inbox'),
    processing: join(root, 'processing'),
    archive: join(root, 'archive'),
    failed: join(root, 'failed'),
    outbox: join(root, 'outbox'),
    reports: join(root, 'outbox', 'reports'),
    remove: () => rm(jail, { recursive: true, force: true }),
  };
  for (const p of [d.inbox, d.processing, d.archive, d.failed, d.reports]) await mkdir(p, { recursive: true });
  return d;
}

export interface ServiceEnv {
  redisUrl: string;
  baseUrl: string;
  token: string;
  prefix: string;
  data: DataDir;
  extra?: Record<string, string>;
}

export function serviceEnv(e: ServiceEnv): Record<string, string> {
  return {
    SOURCING_BASE_URL: e.baseUrl,
    SOURCING_TOKEN: e.token,
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: e.prefix,
    SOURCING_ACCOUNT: 'hardening',
    RFQ_SYNC_DIR: e.data.root,
    MAPPINGS_DIR: join(PACKAGE_ROOT, 'mappings'),
    SOURCING_CONNECT_TIMEOUT_MS: '1000',
    SOURCING_HEADERS_TIMEOUT_MS: '2000',
    SOURCING_BODY_TIMEOUT_MS: '2000',
    SOURCING_CALL_DEADLINE_MS: '5000',
    SOURCING_GET_RETRIES: '2',
    RATE_LIMIT_PER_SECOND: '500',
    CONCURRENCY_CREATE: '8',
    JOB_ATTEMPTS: '1000',
    JOB_BACKOFF_MS: '200',
    FILE_STABLE_MS: '400',
    WATCH_POLLING: 'true',
    WATCH_INTERVAL_MS: '200',
    SWEEP_CRON: '*/2 * * * * *',
    POLL_CRON: '*/2 * * * * *',
    HTTP_PORT: '0',
    LOG_LEVEL: 'info',
    ...e.extra,
  };
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout (JSON log lines) and stderr. */
  output(): string;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Start a worker process and wait until it says it is ready. */
export async function startService(
  env: Record<string, string>,
  opts: { readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [SERVICE], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  while (!chunks.join('').includes('"ready":true')) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `worker process exited at start (${child.exitCode ?? child.signalCode}):\n${chunks.join('').slice(-3000)}`,
      );
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker process not ready in time:\n${chunks.join('').slice(-3000)}`);
    }
    await sleep(50);
  }
  return {
    child,
    output: () => chunks.join(''),
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitUntil(
  what: string,
  cond: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 200,
  state?: () => Promise<string>,
): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await cond()) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${state ? `; state: ${await state().catch((e: Error) => e.message)}` : ''}`,
      );
    await sleep(everyMs);
  }
}

/** Read-only handles on the five queues, to count jobs by state. */
export function openQueues(
  redisUrl: string,
  prefix: string,
  account = 'hardening',
): { counts(): Promise<Record<QueueKey, Record<string, number>>>; close(): Promise<void> } {
  const connection = { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as RedisConnectionOptions;
  const queues = QUEUE_KEYS.map(
    (k) => [k, new Queue(QUEUE_NAMES[k], { connection, prefix: bullPrefix(prefix, account) })] as const,
  );
  for (const [, q] of queues) q.on('error', () => undefined);
  return {
    async counts() {
      const out = {} as Record<QueueKey, Record<string, number>>;
      for (const [k, q] of queues)
        out[k] = await q.getJobCounts(
          'waiting',
          'active',
          'delayed',
          'failed',
          'completed',
          'prioritized',
          'waiting-children',
        );
      return out;
    },
    async close() {
      await Promise.allSettled(queues.map(([, q]) => q.close()));
    },
  };
}

/** Jobs not finished (waiting, active, delayed...), per queue. */
export function unfinished(c: Record<string, Record<string, number>>, only?: QueueKey[]): number {
  let n = 0;
  for (const [k, v] of Object.entries(c)) {
    if (only && !only.includes(k as QueueKey)) continue;
    n += (v.waiting ?? 0) + (v.active ?? 0) + (v.delayed ?? 0) + (v.prioritized ?? 0) + (v['waiting-children'] ?? 0);
  }
  return n;
}

/** Every file under `dir`, as paths relative to it. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(dir, p));
    }
  };
  await walk(dir);
  return out;
}

/** True when `p` is inside `dir` once resolved. */
export function inside(dir: string, p: string): boolean {
  const rel = relative(resolve(dir), resolve(p));
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith('/');
}

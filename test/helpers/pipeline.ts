/**
 * The one test harness of the pipeline-level tests (creation, intake, tracking, hardening): a real redis-server, the
 * sandbox over real HTTP, a fresh data folder and a fresh REDIS_PREFIX (`usePipeline`), the environment of a worker,
 * the worker child that runs the shipped `rfq-sync worker` command (`spawnWorker`), in-process contexts for tests
 * that drive one piece, one `waitFor` and one `waitForQueue`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { loadConfig, PACKAGE_ROOT, type Config } from '../../src/settings/config.ts';
import type { IntakeContext } from '../../src/intake/inbox-intake.ts';
import { startInboxWatcher, type InboxWatcher } from '../../src/intake/inbox-watcher.ts';
import { silentLogger, type Logger } from '../../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { redisOptionsFromUrl } from '../../src/redis/redis-options.ts';
import type { EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { bullPrefix, createQueues, type Queues, type RedisConnectionOptions } from '../../src/redis/queues.ts';
import { redisKeys, type RedisKeys } from '../../src/redis/redis-keys.ts';
import { createRfqOnce, type CreatorDeps } from '../../src/creation/rfq-creator.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';
import { enqueuePollNow } from '../../src/queues/poll.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { freshPrefix, useRedis } from './redis.ts';
import { useSandbox } from './sandbox.ts';
import { sleep } from './wait.ts';
import { makeTempDir } from './temp-dir.ts';
import type { Folders } from '../../src/settings/folders.ts';
import { QUEUE_KEYS, QUEUE_NAMES, type QueueKey } from '../../src/queues/index.ts';
import { ThrottledError, AttemptBusyError } from '../../src/core/index.ts';
import type { CreateOutcome } from '../../src/creation/settle-existing.ts';

export { freshPrefix, useRedis } from './redis.ts';
export { useSandbox } from './sandbox.ts';
export { sleep, waitFor } from './wait.ts';

const BIN = join(PACKAGE_ROOT, 'bin', 'rfq-sync.ts');

// ---------------------------------------------------------------------------------------------------------------
// usePipeline: the lifecycle

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

// ---------------------------------------------------------------------------------------------------------------
// The data folder

export interface DataDir extends Pick<
  Folders,
  'root' | 'inbox' | 'processing' | 'archive' | 'failed' | 'outbox' | 'reports'
> {
  /** A fresh temp dir holding only `data/` (so anything written beside it is a path escape). */
  jail: string;
  remove(): Promise<void>;
}

export async function makeDataDir(tag: string): Promise<DataDir> {
  const jail = makeTempDir(`rfq-sync-${tag}-`);
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

/** A bare temp folder that the caller removes (a test takes test/helpers/temp-dir.ts's tempDir(), removed for it). */
export function tempDir(): { dir: string; remove(): void } {
  const dir = makeTempDir('rfq-inbox-');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A folder's entries, sorted; none when it does not exist. */
export function ls(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/**
 * Clean-ups run after each test, the last registered first (a context closes before its folder is removed), each
 * once; what a test started part-way is cleaned up too.
 */
export function useCleanups(): { push(...fns: Array<() => Promise<unknown> | unknown>): void } {
  let fns: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    const now = fns.reverse();
    fns = [];
    for (const fn of now) await fn();
  });
  return { push: (...more) => void fns.push(...more) };
}

// ---------------------------------------------------------------------------------------------------------------
// The environment of a worker

export interface PipelineEnv {
  redisUrl: string;
  baseUrl: string;
  token: string;
  prefix: string;
  account?: string;
  /** Data folder. Default: a shared folder under /tmp (contexts that never touch files). */
  dir?: string;
  extra?: Record<string, string>;
}

/** Environment of a creation-proof worker: short time-outs so ambiguous answers and crashes resolve quickly. */
export function pipelineEnvVars(e: PipelineEnv): Record<string, string> {
  return {
    SOURCING_BASE_URL: e.baseUrl,
    ...(e.extra?.SOURCING_TOKEN_FILE ? {} : { SOURCING_TOKEN: e.token }),
    REDIS_URL: e.redisUrl,
    REDIS_PREFIX: e.prefix,
    SOURCING_ACCOUNT: e.account ?? 'acct',
    SOURCING_CONNECT_TIMEOUT_MS: '1000',
    SOURCING_HEADERS_TIMEOUT_MS: '1500',
    SOURCING_BODY_TIMEOUT_MS: '1500',
    // a lost answer is proven absent only from lists read after its POST's deadline (plus the settle time): short
    SOURCING_CALL_DEADLINE_MS: '2500',
    SOURCING_GET_RETRIES: '2',
    SOURCING_PAGE_CONCURRENCY: '1',
    // the sandbox lists a new RFQ at once unless told to lag: the lists settle as soon as the lag measured allows
    SOURCING_LIST_SETTLE_MS: '200',
    RATE_LIMIT_PER_SECOND: '1000',
    CONCURRENCY_CREATE: '8',
    JOB_ATTEMPTS: '50',
    JOB_BACKOFF_MS: '100',
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    RFQ_SYNC_DIR: e.dir ?? '/tmp/rfq-sync-pipeline-tests',
    ...e.extra,
  };
}

export function pipelineConfig(e: PipelineEnv): Config {
  return loadConfig(pipelineEnvVars(e) as NodeJS.ProcessEnv);
}

export async function pipelineContext(e: PipelineEnv, logger: Logger = silentLogger): Promise<AppContext> {
  const config = pipelineConfig(e);
  return createWorkerContext(config, logger, { redisUrl: e.redisUrl, baseUrl: e.baseUrl, authCheckMs: 200 });
}

export interface ServiceEnv {
  redisUrl: string;
  baseUrl: string;
  token: string;
  prefix: string;
  data: DataDir;
  extra?: Record<string, string>;
}

/**
 * Environment of a whole worker (every queue, the watched inbox, the poll schedule) for the hardening suite: short
 * locks and stalled checks so a killed worker's jobs come back quickly, sweeps and polls every 2 s.
 */
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
    SOURCING_LIST_SETTLE_MS: '200',
    RATE_LIMIT_PER_SECOND: '500',
    CONCURRENCY_CREATE: '8',
    JOB_ATTEMPTS: '1000',
    JOB_BACKOFF_MS: '200',
    JOB_LOCK_MS: '3000',
    STALLED_CHECK_MS: '1500',
    JOB_MAX_STALLED: '1000',
    AUTH_CHECK_MS: '500',
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

// ---------------------------------------------------------------------------------------------------------------
// The worker child: the shipped `rfq-sync worker` command

export interface WorkerChild {
  child: ChildProcess;
  /** Everything it wrote to stdout (JSON log lines) and stderr. */
  output(): string;
  alive(): boolean;
  exited: Promise<void>;
  /** Send `signal` (default SIGKILL) and wait until it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpawnWorkerOptions {
  readyTimeoutMs?: number;
}

/** Levels at which the `worker.started` line (info) is written. */
const SHOWS_INFO = new Set(['info', 'debug', 'trace']);

/**
 * `node bin/rfq-sync.ts worker` with this environment only (plus PATH and HOME), resolved once it logged
 * `worker.started` (everything runs: workers, inbox watcher, schedules). The log level is at least `info` so that
 * line shows; logs are JSON lines on stdout.
 */
export async function spawnWorker(env: Record<string, string>, opts: SpawnWorkerOptions = {}): Promise<WorkerChild> {
  const level = SHOWS_INFO.has(env.LOG_LEVEL ?? 'info') ? (env.LOG_LEVEL ?? 'info') : 'info';
  const child = spawn(process.execPath, [BIN, 'worker'], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, LOG_LEVEL: level },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  while (!chunks.join('').includes('"event":"worker.started"')) {
    if (!alive())
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
    alive,
    exited,
    async kill(signal = 'SIGKILL') {
      if (alive()) {
        child.kill(signal);
        await exited;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Waiting

/** Job counts by state, read through BullMQ. */
export type JobCounts = Record<string, number>;

/** States of a job not finished yet. */
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** A queue's jobs by state: every unfinished state, failed and completed. */
export function jobCounts(q: Queue): Promise<JobCounts> {
  return q.getJobCounts(...UNFINISHED, 'failed', 'completed');
}

/** What `jobCounts` says of a queue whose `completed` jobs all finished and none failed or is left. */
export function settled(completed: number): JobCounts {
  return { ...Object.fromEntries(UNFINISHED.map((s) => [s, 0])), failed: 0, completed };
}

/**
 * Wait until these queues' job counts (BullMQ getJobCounts) satisfy `until`; default: nothing waiting, active,
 * delayed or prioritized in any of them.
 */
export async function waitForQueue(
  queues: Queue[],
  until: (counts: JobCounts[]) => boolean = (counts) => counts.every((c) => unfinished({ q: c }) === 0),
  timeoutMs = 20_000,
  everyMs = 30,
): Promise<JobCounts[]> {
  const t0 = Date.now();
  for (;;) {
    const counts = await Promise.all(queues.map(jobCounts));
    if (until(counts)) return counts;
    if (Date.now() - t0 > timeoutMs) throw new Error(`queues did not settle: ${JSON.stringify(counts)}`);
    await sleep(everyMs);
  }
}

/** Read-only handles on the queues of an account, to count jobs by state. */
export function openQueues(
  redisUrl: string,
  prefix: string,
  account = 'hardening',
): { counts(): Promise<Record<QueueKey, JobCounts>>; close(): Promise<void> } {
  const connection = { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as RedisConnectionOptions;
  const queues = QUEUE_KEYS.map(
    (k) => [k, new Queue(QUEUE_NAMES[k], { connection, prefix: bullPrefix(prefix, account) })] as const,
  );
  for (const [, q] of queues) q.on('error', () => undefined);
  return {
    async counts() {
      const out = {} as Record<QueueKey, JobCounts>;
      for (const [k, q] of queues) out[k] = await jobCounts(q);
      return out;
    },
    async close() {
      await Promise.allSettled(queues.map(([, q]) => q.close()));
    },
  };
}

/** Jobs not finished (waiting, active, delayed...), over these queues' counts (or only some of them). */
export function unfinished(c: Record<string, JobCounts>, only?: QueueKey[]): number {
  let n = 0;
  for (const [k, v] of Object.entries(c)) {
    if (only && !only.includes(k as QueueKey)) continue;
    n += (v.waiting ?? 0) + (v.active ?? 0) + (v.delayed ?? 0) + (v.prioritized ?? 0) + (v['waiting-children'] ?? 0);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// Creation: requisitions and the exactly-once check

/** `n` requisitions with 1-3 lines each; external_ids `${tag}-<n>-<line>` are unique. */
export function makeRequisitions(n: number, tag: string): Requisition[] {
  const due = Date.UTC(2030, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    key: `PR-${tag}-${i}`,
    sourceFile: `${tag}.csv`,
    profile: 'generic',
    title: `Requisition ${tag} ${i}`,
    due_date: due,
    rfq_type: 'Public' as const,
    lines: Array.from({ length: 1 + (i % 3) }, (_, j) => ({
      external_id: `${tag}-${i}-${j}`,
      product_name: `Item ${i}.${j}`,
      uom: 'pcs',
      qty: 1 + j,
      estimated_price: 100 * (j + 1),
      row: 2 + j,
    })),
  }));
}

/**
 * One requisition through the creation protocol as its create-rfq job runs it, in-process: an attempt that must wait
 * (another attempt holds it, calls are throttled, the lists must settle or be walked) sleeps the time it names and
 * tries again, until the protocol says what happened.
 */
export async function createAsJob(deps: CreatorDeps, r: Requisition): Promise<CreateOutcome> {
  for (;;) {
    try {
      return await createRfqOnce(deps, r);
    } catch (err) {
      if (!(err instanceof AttemptBusyError || err instanceof ThrottledError)) throw err;
      await sleep(err.waitMs);
    }
  }
}

/** Every external_id of these requisitions appears in exactly one RFQ at the sandbox, and nothing else does. */
export function checkExactlyOnce(
  rfqs: StoredRfq[],
  reqs: Requisition[],
): { duplicates: string[]; missing: string[]; rfqCount: number } {
  const seen = new Map<string, number>();
  for (const r of rfqs)
    for (const l of r.lines) if (l.external_id) seen.set(l.external_id, (seen.get(l.external_id) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([e]) => e);
  const missing = reqs.flatMap((r) => r.lines.map((l) => l.external_id)).filter((e) => !seen.has(e));
  return { duplicates, missing, rfqCount: rfqs.length };
}

// ---------------------------------------------------------------------------------------------------------------
// Intake: a minimal intake context, generic CSVs, report notes

export interface TestIntake extends IntakeContext {
  config: Config;
  keys: RedisKeys;
  queues: Queues;
  dir: string;
  close(): Promise<void>;
}

export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ RFQ_SYNC_DIR: dir, REDIS_PREFIX: freshPrefix(), FILE_STABLE_MS: '300', HTTP_PORT: '0', ...env });
}

export function testIntake(redisUrl: string, config: Config): TestIntake {
  const redis = new Redis(redisOptionsFromUrl(redisUrl));
  redis.on('error', () => undefined); // a test may stop Redis: commands report it, the connection retries
  const keys = redisKeys(config.REDIS_PREFIX, config.account);
  const queues = createQueues(
    { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as never,
    bullPrefix(config.REDIS_PREFIX, config.account),
    { attempts: 3, backoffMs: 50 },
  );
  return {
    config,
    logger: silentLogger,
    redis,
    keys,
    queues,
    dir: config.folders.root,
    async close() {
      await queues.close();
      await redis.quit();
    },
  };
}

/**
 * Intake contexts and inbox watchers for the intake tests, closed (and their data folders removed) after each test,
 * through `cleanups`, which the test may use for what it makes itself.
 */
export function useIntakes(redisUrl: () => string) {
  const cleanups = useCleanups();
  return {
    cleanups,
    /** An intake context over a fresh data folder; the inbox sweep is off unless `env` sets SWEEP_CRON. */
    open(env: Record<string, string> = {}, url = redisUrl()): TestIntake {
      const t = tempDir();
      const ctx = testIntake(url, testConfig(t.dir, { SWEEP_CRON: '0 0 1 1 *', ...env }));
      cleanups.push(t.remove, () => ctx.close());
      return ctx;
    },
    async watch(ctx: TestIntake, opts: Parameters<typeof startInboxWatcher>[1] = {}): Promise<InboxWatcher> {
      const w = await startInboxWatcher(ctx, opts);
      cleanups.push(() => w.close());
      return w;
    },
  };
}

/** The Note lines of a report's Summary sheet (ingest report and duplicate/refusal report alike). */
export async function reportNotes(path: string): Promise<string[]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const notes: string[] = [];
  wb.getWorksheet('Summary')?.eachRow((row) => {
    if (row.getCell(1).text === 'Note') notes.push(row.getCell(2).text);
  });
  return notes;
}

export const GENERIC_HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';

/** One requisition in the generic template: `lines` lines, external_ids `${pr}-1`..`${pr}-n`. */
export function genericRows(pr: string, lines: number, title = `Requisition ${pr}`): string {
  let out = '';
  for (let i = 1; i <= lines; i++)
    out += `${pr},${i},Item ${pr}/${i},Spec ${i},pc,${i * 2},${i * 100},${title},Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n`;
  return out;
}

export function genericCsv(...requisitions: Array<[pr: string, lines: number]>): string {
  return `${GENERIC_HEADER}\n${requisitions.map(([pr, n]) => genericRows(pr, n)).join('')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Tracking: a context with the poll, quotations and comparison workers

export interface PollingHarness {
  ctx: AppContext;
  dir: string;
  workers: Worker[];
  /** Enqueue a poll now and wait until it and every job it caused are done. */
  pollAndSettle(): Promise<void>;
  settle(): Promise<void>;
  /** Create an RFQ on the sandbox through the client and track it like create-rfq does. */
  createTrackedRfq(title: string, lines?: number): Promise<number>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  redisUrl: string;
  sandbox: Sandbox;
  token?: () => string;
  env?: Record<string, string>;
  /** Share the namespace and folder of another harness (two workers of one deployment). */
  shareWith?: PollingHarness;
  /** Start workers (default true). */
  workers?: boolean;
  /** Default: silent. */
  logger?: Logger;
}

/**
 * A real worker context (Redis, sandbox over HTTP, BullMQ queues) with workers for the poll, quotations and
 * comparison queues running this project's processors.
 */
export async function pollingHarness(o: HarnessOptions): Promise<PollingHarness> {
  const dir = o.shareWith?.dir ?? makeTempDir('rfq-poll-');
  const config = loadConfig({
    RFQ_SYNC_DIR: dir,
    REDIS_PREFIX: o.shareWith?.ctx.config.REDIS_PREFIX ?? freshPrefix(),
    SOURCING_BASE_URL: o.sandbox.url,
    SOURCING_TOKEN: 'sandbox-token',
    HTTP_PORT: '0',
    JOB_BACKOFF_MS: '100',
    JOB_ATTEMPTS: '3',
    // The overview's rewrite after comparisons waits for the end of its window: short here, so settle() is quick.
    OVERVIEW_REFRESH_MS: '200',
    ...o.env,
  });
  const ctx = await createWorkerContext(config, o.logger ?? silentLogger, {
    redisUrl: o.redisUrl,
    baseUrl: o.sandbox.url,
    authCheckMs: 100,
    ...(o.token ? { token: o.token } : {}),
  });
  const workers: Worker[] = [];
  if (o.workers !== false) {
    // Loaded here: most users of this module never run them (the workbook libraries are heavy).
    const [{ processPoll }, { processQuotations }, { processComparison }] = await Promise.all([
      import('../../jobs/poll.ts'),
      import('../../jobs/quotations.ts'),
      import('../../jobs/comparison.ts'),
    ]);
    const opts = { connection: ctx.connection, prefix: ctx.bullPrefix };
    workers.push(
      new Worker(QUEUE_NAMES.poll, (job: Job) => processPoll(ctx, job), opts),
      new Worker(QUEUE_NAMES.quotations, (job: Job) => processQuotations(ctx, job), { ...opts, concurrency: 4 }),
      new Worker(QUEUE_NAMES.comparison, (job: Job) => processComparison(ctx, job), opts),
    );
    for (const w of workers) w.on('error', () => undefined);
  }
  const settle = async () => {
    await waitForQueue([ctx.queues.poll, ctx.queues.quotations, ctx.queues.comparison]);
  };
  let lastPollAt = 0;
  return {
    ctx,
    dir,
    workers,
    settle,
    async pollAndSettle() {
      // Poll ids carry the time in ms: keep two polls of one test apart.
      const now = Math.max(Date.now(), lastPollAt + 1);
      lastPollAt = now;
      await enqueuePollNow(ctx, now);
      await settle();
    },
    async createTrackedRfq(title, lines = 3) {
      const { _id } = await ctx.client.createRfq({
        title,
        due_date: String(Date.UTC(2031, 0, 15)),
        rfq_type: 'Public',
        lines: Array.from({ length: lines }, (_, i) => ({
          product_name: `Item ${i + 1}`,
          qty: (i + 1) * 2,
          estimated_price: (i + 1) * 100,
          external_id: `${title}-${i + 1}`,
        })),
      });
      await trackRfq(ctx, {
        rfqId: _id,
        requisition: { key: title, sourceFile: `${title}.csv`, profile: 'generic', title },
      });
      return _id;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await closeWorkerContext(ctx);
      if (!o.shareWith) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Award CSV rows as objects (header row names the columns). */
export function readAwardCsv(path: string): Array<Record<string, string>> {
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\r\n');
  const cols = (head ?? '').split(',');
  return rows.map((r) =>
    Object.fromEntries(r.split(',').map((v, i) => [cols[i] ?? String(i), v.replace(/^"|"$/g, '')])),
  );
}

export function fileExists(path: string): boolean {
  return existsSync(path);
}

// ---------------------------------------------------------------------------------------------------------------
// Files

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

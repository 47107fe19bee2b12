/**
 * The worker: one BullMQ Worker per queue, each running that queue's processor from jobs/*.ts with the context.
 * Any number of these, in any number of processes on any number of hosts, share the queues safely: BullMQ hands a
 * job to one worker at a time and the Redis records (idempotency, file ledger, tracking) make a re-run harmless
 * (a job whose worker died is picked up again by the stalled-job check after its lock expires).
 *
 * The inbox watcher and the poll schedule are started beside this by the app (app/runtime/pipeline-runner.ts).
 */
import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { WorkerServices } from '../src/worker/index.ts';
import { type RedisConnectionOptions } from '../src/redis/index.ts';
import { type QueueModule, QUEUE_KEYS, QUEUE_NAMES, type QueueKey } from '../src/queues/index.ts';
import type {
  jobSettings,
  notifySettings,
  operationsSettings,
  serviceSettings,
  SettingValues,
} from '../src/settings/index.ts';
import type { IngestRunConfig, IntakeConfig } from '../src/intake/index.ts';
import type { TrackingConfig } from '../src/tracking/index.ts';
import type { AwardingConfig } from '../src/awarding/index.ts';
import { whileAuditWritable, type RetentionScheduleConfig } from '../src/outbox/index.ts';
import { audited } from './audit-lines.ts';
import type { CreateRfqConfig } from './create-rfq.ts';
import type { ServiceErrorContext } from './service-errors.ts';

/**
 * The settings the worker context carries: what the job processors and the watchers beside them read, as the views
 * their parts declare (each typed from its settings' declarations in src/settings/, where every default is
 * documented), together. A new setting goes into the view of the part that reads it, never into a list here. app/
 * parses the configuration and passes it (a Config fits); what only the context's assembly reads stays in app/
 * (AssemblyConfig in app/runtime/worker-context.ts).
 */
export type WorkerConfig = IntakeConfig &
  IngestRunConfig &
  CreateRfqConfig &
  TrackingConfig &
  AwardingConfig &
  RetentionScheduleConfig &
  ServiceErrorContext['config'] &
  WorkerRunConfig;

/** The worker context: its services (src/worker/) and its settings, built once per process by app/runtime. */
export type WorkerContext = WorkerServices & { config: WorkerConfig };

type Processor = (job: Job) => Promise<unknown>;
/** Builds a queue's processor for the worker's context: whatever wiring its jobs share is built once, here. */
export type ProcessorFactory = (ctx: WorkerContext) => Processor;

/** What each queue's job returns (its BullMQ return value), owned by the job: the app reads results with these. */
export interface JobResults {
  ingest: import('./ingest.ts').IngestJobResult;
  createRfq: import('./create-rfq.ts').CreateRfqResult;
  poll: import('./poll.ts').PollJobResult;
  quotations: import('./quotations.ts').QuotationsJobResult;
  comparison: import('./comparison.ts').ComparisonJobResult;
  notify: import('./notify.ts').NotifyJobResult;
}

/**
 * The processor of each queue, loaded when the queue is worked on: a process working only some queues (or
 * restarted often) does not load what it does not run (the workbook libraries of ingest and comparison are heavy).
 */
export const PROCESSORS: Record<QueueKey, () => Promise<ProcessorFactory>> = {
  ingest: async () => {
    const m = await import('./ingest.ts');
    return audited(perJob(m.processIngest), m.auditLines);
  },
  createRfq: async () => {
    const m = await import('./create-rfq.ts');
    return audited((ctx: WorkerContext) => m.createRfqProcessor(ctx), m.auditLines);
  },
  poll: async () => {
    const m = await import('./poll.ts');
    return audited(perJob(m.processPoll), m.auditLines);
  },
  quotations: async () => {
    const m = await import('./quotations.ts');
    return audited(perJob(m.processQuotations), m.auditLines);
  },
  comparison: async () => {
    const m = await import('./comparison.ts');
    return audited(perJob(m.processComparison), m.auditLines);
  },
  notify: async () => {
    const m = await import('./notify.ts');
    return audited(perJob(m.processNotify), m.auditLines);
  },
};

/** A processor with no wiring of its own: it reads what it needs of the context per job. */
function perJob<R>(
  process: (ctx: WorkerContext, job: Job) => Promise<R>,
): (ctx: WorkerContext) => (job: Job) => Promise<R> {
  return (ctx) => (job) => process(ctx, job);
}

/** A queue beside the registered ones, with its processor (test/queues/new-queue.test.ts: how a queue is added). */
export interface ExtraQueue {
  module: QueueModule;
  processor: () => Promise<ProcessorFactory>;
  concurrency?: number;
}

export interface StartWorkerOptions {
  /** Queues this process works on. Default: all six. */
  queues?: QueueKey[];
  /** Queues beside the registered ones (not audited: the audit log knows the registered queues' jobs). */
  extra?: ExtraQueue[];
  /** Overrides of the per-queue concurrency from the config (CONCURRENCY_*). */
  concurrency?: Partial<Record<QueueKey, number>>;
  /** BullMQ job lock, ms (default JOB_LOCK_MS): how long a dead worker's job waits before another takes it. */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for, ms (default STALLED_CHECK_MS). */
  stalledIntervalMs?: number;
  /** Times a job may be taken back from a dead worker before it fails (default JOB_MAX_STALLED; re-runs are safe). */
  maxStalledCount?: number;
  /** Rate limit of create-rfq jobs per second (default RATE_LIMIT_PER_SECOND). */
  ratePerSecond?: number;
  /** Long-poll of an idle worker, seconds (BullMQ drainDelay, default 5). */
  drainDelaySeconds?: number;
}

/** Where this process's BullMQ Workers connect, built by app/ beside the context. */
export interface WorkerConnection {
  /** ioredis options with `maxRetriesPerRequest: null` (BullMQ's requirement for a Worker's blocking client). */
  connection: RedisConnectionOptions;
  /** The account's BullMQ prefix (src/redis/queues.ts bullPrefix). */
  bullPrefix: string;
}

/** The settings the worker reads itself: per-queue concurrency, job locks, the create rate and the shutdown wait. */
export type WorkerRunConfig = Pick<
  SettingValues<typeof jobSettings>,
  | 'CONCURRENCY_INGEST'
  | 'CONCURRENCY_CREATE'
  | 'CONCURRENCY_QUOTATIONS'
  | 'CONCURRENCY_COMPARISON'
  | 'JOB_LOCK_MS'
  | 'STALLED_CHECK_MS'
  | 'JOB_MAX_STALLED'
> &
  Pick<SettingValues<typeof notifySettings>, 'NOTIFY_CONCURRENCY'> &
  Pick<SettingValues<typeof serviceSettings>, 'RATE_LIMIT_PER_SECOND'> &
  Pick<SettingValues<typeof operationsSettings>, 'SHUTDOWN_TIMEOUT_MS'>;

export interface RunningWorker {
  workers: Worker[];
  /** Stop taking jobs, wait for those in flight up to timeoutMs (default SHUTDOWN_TIMEOUT_MS), then close. */
  close(timeoutMs?: number): Promise<void>;
}

export function concurrencyFor(c: WorkerRunConfig, key: QueueKey): number {
  switch (key) {
    case 'ingest':
      return c.CONCURRENCY_INGEST;
    case 'createRfq':
      return c.CONCURRENCY_CREATE;
    case 'poll':
      return 1; // one poll walks every list; the poll runner also takes a Redis lock
    case 'quotations':
      return c.CONCURRENCY_QUOTATIONS;
    case 'comparison':
      return c.CONCURRENCY_COMPARISON;
    case 'notify':
      return c.NOTIFY_CONCURRENCY;
  }
}

function concurrencyOf(ctx: WorkerContext, key: QueueKey, opts: StartWorkerOptions): number {
  // notify: NOTIFY_CONCURRENCY per channel (src/notify/channel-slots.ts)
  return opts.concurrency?.[key] ?? (key === 'notify' ? ctx.notify.sendSlots : concurrencyFor(ctx.config, key));
}

/** `ctx` is handed whole to each queue's processor factory, which names the part its jobs read. */
export function startWorker(ctx: WorkerContext & WorkerConnection, opts: StartWorkerOptions = {}): RunningWorker {
  const keys = opts.queues ?? QUEUE_KEYS;
  const log = ctx.logger.child({ component: 'worker' });
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const runs: Array<Omit<ExtraQueue, 'module'> & { key: string; name: string; registered: boolean }> = [
    ...keys.map((key) => ({ key, name: QUEUE_NAMES[key], processor: PROCESSORS[key], registered: true })),
    ...(opts.extra ?? []).map((x) => ({ ...x, key: x.module.key, name: x.module.name, registered: false })),
  ];
  const workers = runs.map((run) => {
    const { key, name } = run;
    const load = run.processor().then((make) => make(ctx));
    load.catch(() => undefined); // reported by the first job that needs it
    const options: WorkerOptions = {
      connection: ctx.connection,
      prefix: ctx.bullPrefix,
      concurrency: run.registered ? concurrencyOf(ctx, key as QueueKey, opts) : (run.concurrency ?? 1),
      lockDuration: opts.lockDurationMs ?? ctx.config.JOB_LOCK_MS,
      stalledInterval: opts.stalledIntervalMs ?? ctx.config.STALLED_CHECK_MS,
      maxStalledCount: opts.maxStalledCount ?? ctx.config.JOB_MAX_STALLED,
      drainDelay: opts.drainDelaySeconds ?? 5,
      // Jobs started per second; the calls themselves are held to the same rate by src/account/rate-limiter.ts.
      ...(key === 'createRfq'
        ? { limiter: { max: opts.ratePerSecond ?? ctx.config.RATE_LIMIT_PER_SECOND, duration: 1000 } }
        : {}),
    };
    const w = new Worker(
      name,
      async (job: Job) => {
        inFlight++;
        try {
          if (!run.registered) return await (await load)(job);
          // a log that cannot be written holds the job (no attempt spent): no step is done without its line;
          // a notification goes out first (IT hears of the fault itself), then waits for its line
          return await whileAuditWritable(ctx.audit, job, async () => (await load)(job), {
            holdBefore: key !== 'notify',
          });
        } finally {
          if (--inFlight === 0) idle?.();
        }
      },
      options,
    );
    w.on('failed', (job, err) => {
      if (!job) return;
      const final = job.finishedOn !== undefined || job.attemptsMade >= (job.opts.attempts ?? 1);
      log[final ? 'error' : 'warn'](
        { event: final ? 'job.failed' : 'job.retry', queue: name, jobId: job.id, attemptsMade: job.attemptsMade, err },
        `${name} job ${job.id} ${final ? 'failed (kept for `rfq-sync failed list`)' : 'attempt failed, will retry'}: ${err.message}`,
      );
    });
    w.on('error', (err) => log.warn({ err, queue: name }, `${name} worker: ${err.message}`));
    return w;
  });

  let closing: Promise<void> | undefined;
  return {
    workers,
    close(timeoutMs = ctx.config.SHUTDOWN_TIMEOUT_MS) {
      closing ??= (async () => {
        // BullMQ's close() waits for active jobs with no time limit, and a later close(true) only returns that same
        // promise: so stop fetching first, wait for our jobs up to the limit, then close - forced if any still run.
        await Promise.allSettled(workers.map((w) => w.pause(true)));
        if (inFlight > 0) {
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((resolve) => {
            idle = resolve;
            timer = setTimeout(resolve, timeoutMs);
          });
          clearTimeout(timer);
        }
        const force = inFlight > 0;
        if (force)
          log.warn(
            { timeoutMs, inFlight },
            'jobs still running at shutdown time-out; another worker will take them up again',
          );
        await Promise.allSettled(workers.map((w) => w.close(force)));
      })();
      return closing;
    },
  };
}

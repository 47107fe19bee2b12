/**
 * The whole loop in one process, as `worker`, `once` and `demo` run it: the worker context, the BullMQ workers
 * (jobs/worker.ts: the app sits above the jobs), the inbox watcher and the
 * poll schedule; job and file outcomes go to the metrics. `stop` is the graceful order: stop taking files, stop the
 * schedule, let in-flight jobs finish or hand them back within the time limit, then close Redis.
 */
import type { Job } from 'bullmq';
import { startWorker, type JobResults, type RunningWorker, type StartWorkerOptions } from '../../jobs/index.ts';
import type { Config } from '../../src/settings/index.ts';
import { type Logger, removeStaleTemps } from '../../src/core/index.ts';
import {
  startPollSchedule,
  type PollSchedule,
  lastSuccessfulPollAt,
  trackingStatus,
} from '../../src/tracking/index.ts';
import type { WorkerContext } from '../../jobs/index.ts';
import { closeWorkerContext, type AppContext } from './worker-context.ts';
import {
  type AdmitResult,
  startInboxWatcher,
  type InboxWatcher,
  claimIntake,
  startMappingSetWatch,
  type MappingWatch,
} from '../../src/intake/index.ts';
import { queueCounts } from '../../src/redis/index.ts';
import { ingestQueue, QUEUE_KEYS } from '../../src/queues/index.ts';
import { startRetentionSchedule } from '../../src/outbox/index.ts';
import { startNotifyWatch } from './notify-watch.ts';
import type { OpsMetrics } from '../http/index.ts';
import { type Runtime, openContext } from './endpoints.ts';
import { closeToWorkbook, hintFigures } from '../../src/rfqs/index.ts';

/** Temporary outbox files older than this are a crash's leftovers (a live write takes seconds). */
const STALE_TEMP_MS = 10 * 60_000;

export interface PipelineOptions {
  /** How the BullMQ workers run (the demo shortens their idle long-poll). */
  worker?: StartWorkerOptions;
  metrics?: OpsMetrics;
  /** Listen to file-system events (false: sweeps only, for `once`). Default true. */
  watch?: boolean;
  /** Run the SWEEP_CRON and POLL_CRON schedules. Default true. */
  schedule?: boolean;
  /** Called for each file taken from the inbox (demo progress). */
  onAdmitted?: (r: AdmitResult) => void;
  /** Called for each job that ended (demo progress). */
  onJob?: (queue: string, job: Job, result: 'completed' | 'failed', value: unknown) => void;
}

export interface RunningPipeline {
  ctx: AppContext;
  /** The inbox watcher; none with INTAKE=off. */
  watcher: InboxWatcher | undefined;
  /** The mapping profiles as last loaded: which are broken (readiness); none with INTAKE=off. */
  mappings: MappingWatch | undefined;
  worker: RunningWorker;
  poll: PollSchedule | undefined;
  stop(timeoutMs: number): Promise<void>;
}

export async function startPipeline(
  config: Config,
  logger: Logger,
  runtime: Runtime,
  o: PipelineOptions,
): Promise<RunningPipeline> {
  const ctx = await openContext(config, logger, runtime, { metrics: o.metrics });
  let worker: RunningWorker | undefined;
  let watcher: InboxWatcher | undefined;
  let poll: PollSchedule | undefined;
  let retention: { stop(): Promise<void> } | undefined;
  let mappingSets: MappingWatch | undefined;
  let notifyWatch: { stop(): void } | undefined;
  try {
    if (o.metrics) wireMetrics(ctx, o.metrics);
    await startStateCheck(ctx, config, runtime);
    // before any job is taken: a worker whose data folder is not the intake folder exits 2 here
    if (config.INTAKE) await claimIntake(ctx);
    await announceAuthPause(ctx);
    await removeCrashTemps(config, logger);
    if (config.INTAKE)
      mappingSets = await startMappingSetWatch({
        redis: ctx.redis,
        keys: ctx.keys,
        dir: config.folders.mappings,
        logger,
        checkMs: config.MAPPINGS_CHECK_MS,
        // a reload may have fixed the profile a held file waits for
        onChange: () => void watcher?.sweep().catch(() => undefined),
      });
    const queues = (o.worker?.queues ?? QUEUE_KEYS).filter((k) => config.INTAKE || k !== ingestQueue.key);
    worker = startWorker(ctx, { ...o.worker, queues });
    reportJobOutcomes(worker, logger, o);
    if (config.INTAKE)
      watcher = await startInboxWatcher(ctx, {
        watch: o.watch ?? true,
        schedule: o.schedule ?? true,
        recoverAfterMs: config.INBOX_RECOVER_AFTER_MS,
        onAdmitted: (r) => {
          if (r.status === 'duplicate') o.metrics?.onFile('duplicate');
          o.onAdmitted?.(r);
        },
      });
    else
      logger.info(
        { event: 'intake.off' },
        'INTAKE=off: this worker takes no files (no inbox, no ingest jobs); it creates RFQs, polls and writes outputs',
      );
    if (o.schedule ?? true) {
      poll = startPollSchedule(ctx);
      retention = startRetentionSchedule(ctx);
      notifyWatch = startNotifyWatch(ctx);
    }
  } catch (err) {
    await watcher?.close().catch(() => undefined);
    await worker?.close(1_000).catch(() => undefined);
    mappingSets?.stop();
    await closeWorkerContext(ctx).catch(() => undefined);
    throw err;
  }
  const w = worker;
  const wt = watcher;
  const ms = mappingSets;
  let stopping: Promise<void> | undefined;
  return {
    ctx,
    watcher: wt,
    mappings: ms,
    worker: w,
    poll,
    stop(timeoutMs) {
      stopping ??= (async () => {
        await wt?.close().catch((err: unknown) => logger.warn({ err }, 'inbox watcher did not close cleanly'));
        await poll?.stop().catch(() => undefined);
        await retention?.stop().catch(() => undefined);
        notifyWatch?.stop();
        mappingSets?.stop();
        await w.close(timeoutMs);
        await closeWorkerContext(ctx);
      })();
      return stopping;
    },
  };
}

/**
 * A pause found at start is said at once (a restart must not look like a fresh start), and the same token is checked
 * now: a restart is someone asking whether it works again. The check is not waited for: a service that does not
 * answer must not hold the start (its outcome is logged).
 */
async function announceAuthPause(ctx: Pick<WorkerContext, 'authGate' | 'logger'>): Promise<void> {
  const s = await ctx.authGate.status();
  if (!s.paused) return;
  const last = s.lastCheck
    ? `last check ${new Date(s.lastCheck.at).toISOString()}: ${s.lastCheck.result}`
    : 'not checked again yet';
  ctx.logger.error(
    { event: 'auth.paused-at-start', reason: s.reason, since: s.since, checks: s.checks, lastCheck: s.lastCheck },
    `AUTH PAUSE in force since ${s.since ? new Date(s.since).toISOString() : '?'}: ${s.reason ?? ''}. RFQ creation and ` +
      `polling are paused, jobs are kept (${last}). Checking the same token now.`,
  );
  void ctx.authGate
    .checkNow()
    .catch((err: unknown) =>
      ctx.logger.warn({ err }, `auth pause: the check at start failed: ${(err as Error).message}`),
    );
}

/** A Redis that lost its state must not see one claim (the built-in sandbox and a private Redis are throwaway). */
async function startStateCheck(ctx: Pick<WorkerContext, 'state'>, config: Config, runtime: Runtime): Promise<void> {
  if (!runtime.embeddedRedis && !runtime.sandbox) {
    await ctx.state.check();
    ctx.state.start(config.STATE_CHECK_MS);
  }
}

/**
 * A crash mid-write leaves `.x.tmp` files in the outbox (the overview's in the outbox itself): gone at start
 * (those older than 10 minutes).
 */
async function removeCrashTemps(config: Config, logger: Logger): Promise<void> {
  const temps = await removeStaleTemps(
    [config.folders.outbox, config.folders.comparisons, config.folders.awards, config.folders.reports],
    STALE_TEMP_MS,
  );
  if (temps > 0)
    logger.info(
      { event: 'outbox.temps-removed', files: temps },
      `removed ${temps} temporary file(s) a crash left in the outbox`,
    );
}

/** Each job that ends goes to the log (completed), the metrics and the caller's `onJob` (demo progress). */
function reportJobOutcomes(worker: RunningWorker, logger: Logger, o: PipelineOptions): void {
  for (const w of worker.workers) {
    w.on('completed', (job, value) => {
      o.metrics?.onJob(w.name, 'completed');
      logger.info(
        {
          event: 'job.completed',
          queue: w.name,
          jobId: job.id,
          ...jobSubject(job, value),
          ms: job.finishedOn && job.processedOn ? job.finishedOn - job.processedOn : undefined,
        },
        `${w.name} job ${job.id} done`,
      );
      if (w.name === 'ingest') {
        const r = value as JobResults['ingest'];
        o.metrics?.onFile(ingestOutcome(r));
        o.metrics?.onRejectedRows(r.status === 'done' ? r.rejectedRows : 0);
      }
      if (w.name === 'comparison') {
        const v = value as JobResults['comparison'];
        if (v.workbook !== undefined) o.metrics?.onOutput('workbook');
        if (v.awardCsv !== undefined) o.metrics?.onOutput('award');
      }
      o.onJob?.(w.name, job, 'completed', value);
    });
    w.on('failed', (job, err) => {
      if (!job) return;
      // Unrecoverable errors (a rejected requisition) end the job before its attempts are used up.
      const final = job.finishedOn !== undefined || job.attemptsMade >= (job.opts.attempts ?? 1);
      o.metrics?.onJob(w.name, final ? 'failed' : 'retried');
      if (final) o.onJob?.(w.name, job, 'failed', err);
    });
  }
}

/** The requisition, RFQ or file a job was about, for its log line. */
function jobSubject(job: Job, value: unknown): Record<string, unknown> {
  const d = (job.data ?? {}) as {
    requisition?: { profile?: string; key?: string };
    rfqId?: unknown;
    file?: unknown;
    name?: unknown;
  };
  const v = (value ?? {}) as { rfqId?: unknown; status?: unknown; file?: unknown };
  const out: Record<string, unknown> = {};
  if (d.requisition?.key) out.requisition = `${d.requisition.profile ?? ''}/${d.requisition.key}`;
  const rfqId = d.rfqId ?? v.rfqId;
  if (rfqId !== undefined) out.rfqId = rfqId;
  const file = d.file ?? v.file;
  if (typeof file === 'string') out.file = file;
  else if (file && typeof file === 'object' && 'original' in file) out.file = (file as { original: unknown }).original;
  if (typeof v.status === 'string') out.result = v.status;
  return out;
}

function ingestOutcome(r: JobResults['ingest']): string {
  if (r.status === 'refused') return 'failed';
  return r.status === 'done' ? 'archived' : r.status;
}

/** Scrape-time gauges read the shared picture from Redis. */
function wireMetrics(ctx: Pick<WorkerContext, 'queues' | 'redis' | 'keys' | 'authGate'>, metrics: OpsMetrics): void {
  metrics.setSources({
    queueCounts: () => queueCounts(ctx),
    rfqsByState: async () => (await trackingStatus(ctx)).byState,
    pausedForAuth: async () => (await ctx.authGate.status()).paused,
    lastOkPoll: () => lastSuccessfulPollAt(ctx),
    webhook: () => hintFigures(ctx),
    closeToWorkbook: () => closeToWorkbook(ctx),
  });
}

/** Jobs not yet finished in the given queues (waiting, active, delayed, prioritized, waiting for children). */
export async function unfinishedJobs(
  ctx: Pick<WorkerContext, 'queues'>,
  queueNames?: readonly string[],
): Promise<number> {
  const counts = await queueCounts(ctx);
  let n = 0;
  for (const [name, c] of Object.entries(counts)) {
    if (queueNames && !queueNames.includes(name)) continue;
    n += unfinishedIn(c);
  }
  return n;
}

/** Jobs of one queue's counts not yet finished (waiting, active, delayed, prioritized, waiting for children). */
export function unfinishedIn(c: Record<string, number>): number {
  return (c.waiting ?? 0) + (c.active ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0);
}

/**
 * Resolves when the queues have had no unfinished job on two checks in a row; `timeout` when `deadline` passed
 * first, `paused` when the token was refused, `stopped` once `stopped()` says so (a signal: stop asking Redis).
 */
export async function waitForDrain(
  ctx: Pick<WorkerContext, 'queues' | 'authGate'>,
  o: { queues?: readonly string[]; deadline?: number; intervalMs?: number; stopped?: () => boolean } = {},
): Promise<'drained' | 'timeout' | 'paused' | 'stopped'> {
  let emptyChecks = 0;
  for (;;) {
    if (o.stopped?.()) return 'stopped';
    if (ctx.authGate.isPaused()) return 'paused';
    const n = await unfinishedJobs(ctx, o.queues);
    emptyChecks = n === 0 ? emptyChecks + 1 : 0;
    if (emptyChecks >= 2) return 'drained';
    if (o.deadline !== undefined && Date.now() > o.deadline) return 'timeout';
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 250));
  }
}

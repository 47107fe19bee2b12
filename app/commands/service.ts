/**
 * `rfq-sync worker` (the long-running service) and `rfq-sync once` (one full pass, then exit).
 */
import { type Config, displayRedisUrl } from '../../src/settings/index.ts';
import { ConfigError, type Logger } from '../../src/core/index.ts';
import { pendingWork, actOnWebhook, pollHistory } from '../../src/tracking/index.ts';
import { enqueuePollNow, QUEUE_KEYS, QUEUE_NAMES } from '../../src/queues/index.ts';
import { queueCounts } from '../../src/redis/index.ts';
import { EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import {
  type OpsServer,
  createMetrics,
  type OpsMetrics,
  auditReadiness,
  authReadiness,
  mappingsReadiness,
  pollReadiness,
  redisReadiness,
  serviceReadiness,
  stateReadiness,
  traceLookupFor,
  webhookOutcome,
} from '../http/index.ts';
import type { JobResults } from '../../jobs/index.ts';
import {
  startPipeline,
  unfinishedIn,
  waitForDrain,
  type RunningPipeline,
  resolveRuntime,
  installShutdown,
  type ShutdownHandle,
  type ShutdownStep,
  awaitOnceNotifications,
} from '../runtime/index.ts';

/** The pipeline's queues: `once` waits for these; notifications only briefly at the end (a mail server may be down). */
const PIPELINE_QUEUES = Object.values(QUEUE_NAMES).filter((q) => q !== QUEUE_NAMES.notify);

/** The service: runs until SIGTERM/SIGINT, then shuts down gracefully. Resolves with the exit code. */
export async function runWorkerCommand(config: Config, logger: Logger): Promise<number> {
  const metrics = createMetrics();
  const steps: ShutdownStep[] = [];
  const shutdown = installShutdown({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    steps: () => [...steps].reverse(),
  });
  const onStop = (step: ShutdownStep) => steps.push(step);

  try {
    return await startWorkerService(config, logger, metrics, shutdown, onStop);
  } catch (err) {
    // Close what did start (the endpoint, a Redis connection...) so the process can exit with the error.
    await shutdown.trigger('start-up failed', EXIT_FAILED);
    shutdown.dispose();
    throw err;
  }
}

async function startWorkerService(
  config: Config,
  logger: Logger,
  metrics: OpsMetrics,
  shutdown: ShutdownHandle,
  onStop: (step: ShutdownStep) => void,
): Promise<number> {
  // The endpoint comes first, so /healthz answers (and /readyz says why not ready) while the rest starts.
  let ops: OpsServer | undefined;
  if (config.HTTP_PORT !== 0) {
    // express and Bull Board load only for an endpoint that is on (HTTP_PORT 0 turns it off)
    const { startOpsServer } = await import('../http/index.ts');
    ops = await startOpsServer({
      host: config.HTTP_HOST,
      port: config.HTTP_PORT,
      token: config.HTTP_TOKEN,
      allowedHosts: config.HTTP_ALLOWED_HOSTS,
      logger,
      metrics,
      checks: { startup: starting },
      webhook: { secret: config.WEBHOOK_SECRET, maxBodyBytes: config.WEBHOOK_MAX_BODY_BYTES },
    });
    const o = ops;
    onStop({ name: 'operations endpoint', run: () => o.close() });
  }
  const runtime = await resolveRuntime(config, logger, { allowEmbedded: false, command: 'worker' });
  onStop({ name: 'runtime', run: () => runtime.stop() });
  const redisCheck = redisReadiness(runtime.redisUrl);
  onStop({ name: 'readiness connection', run: () => redisCheck.close() });
  ops?.setChecks({ startup: starting, redis: redisCheck.check, service: serviceReadiness(runtime.baseUrl, metrics) });

  const pipeline = await startPipeline(config, logger, runtime, {
    metrics,
    worker: { queues: QUEUE_KEYS.filter((k) => config.WORKER_QUEUES.includes(QUEUE_NAMES[k])) },
  });
  if (shutdown.stopping) {
    // A signal arrived while starting: the shutdown already ran the steps known then.
    await pipeline.stop(config.SHUTDOWN_TIMEOUT_MS);
    await runtime.stop();
    return shutdown.done;
  }
  // Added last, run first: stop taking files and jobs, finish or hand back in-flight jobs, close Redis.
  onStop({ name: 'pipeline', run: () => pipeline.stop(config.SHUTDOWN_TIMEOUT_MS) });
  ops?.setChecks({
    redis: redisCheck.check,
    service: serviceReadiness(runtime.baseUrl, metrics),
    auth: authReadiness(() => pipeline.ctx.authGate.status()),
    state: stateReadiness(() => pipeline.ctx.state.lost()),
    audit: auditReadiness(pipeline.ctx.audit),
    mappings: mappingsReadiness(() => pipeline.mappings?.broken() ?? []),
    poll: pollReadiness(() => pollHistory(pipeline.ctx, 10)),
  });
  ops?.setQueues(pipeline.ctx.queues.all);
  ops?.setWebhookTarget(({ ids }) => actOnWebhook(pipeline.ctx, ids).then(webhookOutcome));
  ops?.setLookup(traceLookupFor(config, pipeline.ctx));

  logger.info(
    {
      event: 'worker.started',
      redis: displayRedisUrl(runtime.redisUrl),
      service: runtime.baseUrl,
      account: config.account,
      inbox: config.INTAKE ? config.folders.inbox : 'off (INTAKE=off)',
      outbox: config.folders.outbox,
      pollCron: config.POLL_CRON,
      ops: ops?.url,
    },
    `rfq-sync worker started: ${config.INTAKE ? `watching ${config.folders.inbox}` : 'no intake (INTAKE=off)'}, polling on "${config.POLL_CRON}"`,
  );
  return shutdown.done;
}

/** Not ready until the workers run: a load balancer or orchestrator must not count a half-started worker. */
const starting = async () => ({ ok: false, detail: 'starting' });

export interface OnceOptions {
  /** Give up waiting for the queues after this long, ms. */
  maxWaitMs: number;
  /**
   * --sandbox: run against the built-in sandbox (and a private redis-server when REDIS_URL is unset). Without it,
   * SOURCING_BASE_URL and REDIS_URL are required: `once` takes the real inbox's files.
   */
  sandbox?: boolean;
}

/**
 * One full pass: take every file in the inbox, create the RFQs, poll once, pull quotations and write comparisons for
 * what the service already allows, and exit when the queues are drained. Exit 0 when all of it was done, 1 when
 * something failed (and was reported: per-file reports, failed jobs kept, log lines).
 */
export async function runOnceCommand(config: Config, logger: Logger, o: OnceOptions): Promise<number> {
  if (o.sandbox && config.SOURCING_BASE_URL)
    throw new ConfigError([
      '--sandbox: SOURCING_BASE_URL is set; unset it to try the built-in sandbox, or drop --sandbox',
    ]);
  const runtime = await resolveRuntime(config, logger, { allowEmbedded: o.sandbox === true, command: 'once' });
  const problems: string[] = [];
  let pipeline: RunningPipeline | undefined;
  // A signal while `once` runs: what is still pending is counted while Redis is up, then everything stops.
  let interrupted: { signal: NodeJS.Signals; pending?: string } | undefined;
  const shutdown = installShutdown({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    onSignal: (signal) => {
      interrupted = { signal };
    },
    steps: () => [
      {
        name: 'pending work',
        run: async () => {
          if (interrupted) interrupted.pending = await pendingJobs(pipeline);
        },
      },
      { name: 'pipeline', run: async () => pipeline?.stop(config.SHUTDOWN_TIMEOUT_MS) },
      { name: 'runtime', run: () => runtime.stop() },
    ],
  });
  const deadline = Date.now() + o.maxWaitMs;
  try {
    pipeline = await startPipeline(config, logger, runtime, {
      watch: false,
      schedule: false,
      onJob: (queue, job, result, value) => noteProblems(problems, queue, job.id, result, value),
    });
    // A signal during start-up may have run the shutdown before there was a pipeline to stop (stop is idempotent).
    if (interrupted) await pipeline.stop(config.SHUTDOWN_TIMEOUT_MS);
    else await runOnePass(pipeline, { ...o, deadline }, problems, () => interrupted !== undefined, config, logger);
  } catch (err) {
    // Stopping closed Redis under whatever was waiting on it: that is the interruption, not an error.
    if (!interrupted) throw err;
  } finally {
    await shutdown.trigger('once finished');
    shutdown.dispose();
  }
  if (interrupted) {
    const kept = runtime.embeddedRedis
      ? 'they end with the private redis-server of this run'
      : 'they stay queued in Redis: run `once` again or start a worker';
    process.stderr.write(
      `rfq-sync: once interrupted by ${interrupted.signal}; pending: ${interrupted.pending ?? 'unknown'}; ${kept}\n`,
    );
    return EXIT_FAILED;
  }
  for (const p of problems) logger.error({ event: 'once.problem' }, p);
  logger.info(
    { event: 'once.done', problems: problems.length },
    problems.length ? `once: finished with ${problems.length} problem(s)` : 'once: all done',
  );
  return problems.length ? EXIT_FAILED : EXIT_OK;
}

/** The pass itself: the inbox swept, creation drained, then polls until nothing reachable is left. */
async function runOnePass(
  pipeline: RunningPipeline,
  o: OnceOptions & { deadline: number },
  problems: string[],
  stopped: () => boolean,
  config: Config,
  logger: Logger,
): Promise<void> {
  const { ctx } = pipeline;
  const { deadline } = o;
  await pipeline.watcher?.sweep();
  let outcome = await waitForDrain(ctx, { queues: [QUEUE_NAMES.ingest, QUEUE_NAMES.createRfq], deadline, stopped });
  // Poll until nothing reachable is left: a poll finds closed/completed RFQs, their quotations and comparisons follow.
  for (let round = 0; outcome === 'drained' && round < 3; round++) {
    await enqueuePollNow(ctx);
    outcome = await waitForDrain(ctx, { queues: PIPELINE_QUEUES, deadline, stopped });
    if (outcome !== 'drained' || (await pendingWork(ctx)).done) break;
  }
  if (ctx.notify.enabled && !stopped()) await awaitOnceNotifications(pipeline, config, logger, deadline);
  if (outcome === 'paused')
    problems.push('the sourcing service refused the token: creation and polling are paused, jobs are kept');
  if (outcome === 'timeout')
    problems.push(
      `the queues were not drained within ${Math.round(o.maxWaitMs / 1000)} s (jobs are kept; run again or start a worker)`,
    );
}

/** What a finished job says that `once` must report (failed jobs, refused files, rejected rows). */
function noteProblems(
  problems: string[],
  queue: string,
  jobId: string | undefined,
  result: 'completed' | 'failed',
  value: unknown,
): void {
  if (result === 'failed') problems.push(`${queue} job ${jobId} failed: ${(value as Error).message}`);
  const v = value as JobResults['ingest'] | undefined;
  if (queue === QUEUE_NAMES.ingest && v?.status === 'refused') problems.push(`file ${v.file} refused: ${v.reason}`);
  if (queue === QUEUE_NAMES.ingest && v?.status === 'held')
    problems.push(`file ${v.file} held in the inbox: ${v.reason}`);
  if (queue === QUEUE_NAMES.ingest && v?.status === 'held-for-vendors')
    problems.push(
      `file ${v.file} held in the inbox (CATEGORY_CHECK=hold): the vendor directory could not be read (${v.reason}); read again once it is`,
    );
  if (
    queue === QUEUE_NAMES.ingest &&
    v?.status === 'done' &&
    ((v.rejectedRows ?? 0) > 0 || (v.heldRequisitions ?? 0) > 0)
  ) {
    problems.push(
      `file ${v.file}: ${v.rejectedRows ?? 0} row(s) rejected, ${v.heldRequisitions ?? 0} requisition(s) held back (see its report)`,
    );
  }
}

/** Unfinished jobs per queue, said in a few words (`4 job(s) (create-rfq 3, quotations 1)`), read within 2 s. */
async function pendingJobs(pipeline: RunningPipeline | undefined): Promise<string> {
  if (!pipeline) return 'nothing started yet';
  const read = (async () => {
    const parts: string[] = [];
    let total = 0;
    for (const [name, c] of Object.entries(await queueCounts(pipeline.ctx))) {
      const n = unfinishedIn(c);
      total += n;
      if (n > 0) parts.push(`${name} ${n}`);
    }
    return total > 0 ? `${total} job(s) (${parts.join(', ')})` : 'no jobs';
  })();
  const late = new Promise<string>((r) => setTimeout(() => r('unknown (Redis did not answer in time)'), 2_000).unref());
  return Promise.race([read.catch((err: unknown) => `unknown (${(err as Error).message})`), late]);
}

/**
 * Tracking in-process: a real worker context (Redis, the sandbox over HTTP, BullMQ queues) with workers for the poll,
 * quotations and comparison queues (`pollingHarness`), a poll enqueued and waited out, RFQs created and tracked.
 */
import { rmSync } from 'node:fs';
import { Worker, type Job } from 'bullmq';
import { loadConfig } from '../../src/settings/config.ts';
import { silentLogger, type Logger } from '../../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { QUEUE_NAMES } from '../../src/queues/index.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { enqueuePollNow } from '../../src/queues/poll.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { waitForQueue } from './job-counts.ts';
import { freshPrefix } from './redis.ts';
import { makeTempDir } from './temp-dir.ts';

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
    // the sandbox is local: the default 10 calls a second made polls and quotation pulls wait (a test of the limit
    // sets its own)
    RATE_LIMIT_PER_SECOND: '1000',
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

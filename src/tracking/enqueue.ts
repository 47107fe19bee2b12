/**
 * Job payloads and deterministic job ids of the poll, quotations and comparison queues.
 *
 * Ids (queues.ts jobId, never `:` nor all digits):
 *   - poll:        `poll~<slot>`: one per cron slot however many schedulers add it; `poll~now~<ms>` for `rfq-sync poll`;
 *                  `poll~hook~<ms>` for a webhook (poll-wake.ts);
 *   - quotations:  `quotations~<rfq>~closed` and `~award` (once per transition; a re-add while kept is a no-op, and
 *                  a re-run finds its work done), `~check~<slot>` (the revision check of one poll, dropped once done);
 *   - comparison:  `comparison~<rfq>~v<version>`: each version is written once;
 *   - overview:    `overview~<window>` on the poll queue: one rewrite per OVERVIEW_REFRESH_MS window (enqueueOverview).
 */
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { jobId, type Queues } from '../redis/index.ts';

export const pollJobSchema = z.object({
  /** Cron slot (`<epoch seconds>`), `now~<ms>` for a poll asked for by hand, `hook~<ms>` for a webhook's. */
  slot: z.string().regex(/^[0-9a-z~]+$/),
  /** Unix ms the slot stands for. */
  scheduledAt: z.number().int().nonnegative(),
});
export type PollJobData = z.infer<typeof pollJobSchema>;

export const quotationsReasons = ['closed', 'check', 'award', 'manual'] as const;
export type QuotationsReason = (typeof quotationsReasons)[number];
export const quotationsJobSchema = z.object({
  rfqId: z.number().int().positive(),
  reason: z.enum(quotationsReasons),
});
export type QuotationsJobData = z.infer<typeof quotationsJobSchema>;

export const comparisonJobSchema = z.object({
  rfqId: z.number().int().positive(),
  version: z.number().int().positive(),
});
export type ComparisonJobData = z.infer<typeof comparisonJobSchema>;

/** Revision checks run every poll for every closed RFQ: not worth keeping once done, and retried by the next poll. */
const CHECK_JOB_OPTS: JobsOptions = { attempts: 3, removeOnComplete: true, removeOnFail: { age: 3600 } };

export async function enqueueQuotations(
  ctx: { queues: Pick<Queues, 'quotations'> },
  data: QuotationsJobData,
  slot?: string,
): Promise<string> {
  const id =
    data.reason === 'check' || data.reason === 'manual'
      ? jobId('quotations', data.rfqId, data.reason, slot ?? Date.now())
      : jobId('quotations', data.rfqId, data.reason);
  await ctx.queues.quotations.add('quotations', data, {
    jobId: id,
    ...(data.reason === 'check' ? CHECK_JOB_OPTS : {}),
  });
  return id;
}

export async function enqueueComparison(
  ctx: { queues: Pick<Queues, 'comparison'> },
  data: ComparisonJobData,
): Promise<string> {
  const id = jobId('comparison', data.rfqId, `v${data.version}`);
  await ctx.queues.comparison.add('comparison', data, { jobId: id });
  return id;
}

/**
 * A poll is superseded by the next slot's: a few attempts are enough, and failed polls are kept for `failed list`
 * but bounded (a service that keeps failing would otherwise leave one failed job per slot, 288 a day).
 */
const POLL_JOB_OPTS: JobsOptions = { attempts: 3, removeOnFail: { age: 7 * 24 * 3600, count: 100 } };

export async function enqueuePoll(
  ctx: { queues: Pick<Queues, 'poll'> },
  data: PollJobData,
  delayMs = 0,
): Promise<string> {
  const id = jobId('poll', ...data.slot.split('~'));
  await ctx.queues.poll.add('poll', data, { jobId: id, ...POLL_JOB_OPTS, ...(delayMs > 0 ? { delay: delayMs } : {}) });
  return id;
}

/** Rewrite of the overview after comparisons, a job of the poll queue (mostly idle between polls). */
export const OVERVIEW_JOB = 'overview';
export const overviewJobSchema = z.object({
  /** Unix ms of the first comparison that asked for it. */
  requestedAt: z.number().int().nonnegative(),
});
const OVERVIEW_JOB_OPTS: JobsOptions = { attempts: 3, removeOnComplete: true, removeOnFail: { age: 3600 } };

/**
 * Ask for the overview to be rewritten at the end of the current OVERVIEW_REFRESH_MS window: every comparison of
 * the window adds the same job id (`overview~<window>`, a no-op once added), so a burst of a thousand comparisons
 * costs one rewrite per window, and the rewrite runs after the last of them. Returns the job id (none when off).
 */
export async function enqueueOverview(
  ctx: { queues: Pick<Queues, 'poll'>; config: { OVERVIEW_REFRESH_MS: number } },
  now = Date.now(),
): Promise<string | undefined> {
  const ms = ctx.config.OVERVIEW_REFRESH_MS;
  if (ms === 0) return undefined;
  const window = Math.floor(now / ms);
  const id = jobId('overview', window);
  await ctx.queues.poll.add(
    OVERVIEW_JOB,
    { requestedAt: now },
    { jobId: id, delay: (window + 1) * ms - now, ...OVERVIEW_JOB_OPTS },
  );
  return id;
}

/** `rfq-sync poll`: one poll now, whatever the schedule. Returns the job id. */
export async function enqueuePollNow(ctx: { queues: Pick<Queues, 'poll'> }, now = Date.now()): Promise<string> {
  return enqueuePoll(ctx, { slot: `now~${now}`, scheduledAt: now });
}

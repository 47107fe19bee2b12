/**
 * Queue `poll`: one poll of the tracked RFQs (jobs/poll.ts), and between polls the `overview` rewrites.
 *
 * Jobs named `poll`: payload { slot, scheduledAt } (pollJobSchema). Job id `poll~<slot>`: one per cron slot however
 *   many schedulers add it; `poll~now~<ms>` for `rfq-sync poll`; `poll~hook~<ms>` for a webhook (poll-wake.ts).
 *   Options: 3 attempts, failed polls kept a week, 100 at most (the next slot supersedes a failed poll).
 * Jobs named `overview`: payload { requestedAt } (overviewJobSchema). Job id `overview~<window>`: one rewrite per
 *   OVERVIEW_REFRESH_MS window (enqueueOverview). Options: 3 attempts, removed once done, failed kept an hour.
 */
import type { JobsOptions, Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from './job-id.ts';
import type { QueueModule } from './queue-module.ts';

export const pollJobSchema = z.object({
  /** Cron slot (`<epoch seconds>`), `now~<ms>` for a poll asked for by hand, `hook~<ms>` for a webhook's (pollSlot). */
  slot: z.string().regex(/^[0-9a-z~]+$/),
  /** Unix ms the slot stands for. */
  scheduledAt: z.number().int().nonnegative(),
});
export type PollJobData = z.infer<typeof pollJobSchema>;

/** Rewrite of the overview after comparisons, a job of the poll queue (mostly idle between polls). */
export const OVERVIEW_JOB = 'overview';
export const overviewJobSchema = z.object({
  /** Unix ms of the first comparison that asked for it. */
  requestedAt: z.number().int().nonnegative(),
});
export type OverviewJobData = z.infer<typeof overviewJobSchema>;

export const pollQueue = {
  key: 'poll',
  name: 'poll',
  jobs: { poll: pollJobSchema, [OVERVIEW_JOB]: overviewJobSchema },
  idPrefixes: ['poll', 'overview'],
} as const satisfies QueueModule;

type PollQueues = { queues: { poll: Pick<Queue, 'add'> } };

/**
 * A poll is superseded by the next slot's: a few attempts are enough, and failed polls are kept for `failed list`
 * but bounded (a service that keeps failing would otherwise leave one failed job per slot, 288 a day).
 */
const POLL_JOB_OPTS: JobsOptions = { attempts: 3, removeOnFail: { age: 7 * 24 * 3600, count: 100 } };

/** How a poll came to be asked for: the schedule's cron slot, by hand (`rfq-sync poll`), or by a webhook. */
export type PollSlotKind = 'cron' | 'manual' | 'webhook';

const SLOT_PREFIX = { manual: 'now', webhook: 'hook' } as const;

/** The slot of a poll asked for by hand (`now~<ms>`) or by a webhook (`hook~<ms>`), at `at` (Unix ms). */
export function pollSlot(kind: Exclude<PollSlotKind, 'cron'>, at: number): string {
  return `${SLOT_PREFIX[kind]}~${at}`;
}

/** What asked for the poll of `slot` (pollSlot's, else a cron slot). */
export function pollSlotKind(slot: string): PollSlotKind {
  const prefix = slot.split('~', 1)[0];
  return prefix === SLOT_PREFIX.webhook ? 'webhook' : prefix === SLOT_PREFIX.manual ? 'manual' : 'cron';
}

export function pollJobId(slot: string): string {
  return jobId('poll', ...slot.split('~'));
}

export async function enqueuePoll(ctx: PollQueues, data: PollJobData, delayMs = 0): Promise<string> {
  const id = pollJobId(data.slot);
  await ctx.queues.poll.add('poll', data, { jobId: id, ...POLL_JOB_OPTS, ...(delayMs > 0 ? { delay: delayMs } : {}) });
  return id;
}

/** `rfq-sync poll`: one poll now, whatever the schedule. Returns the job id. */
export async function enqueuePollNow(ctx: PollQueues, now = Date.now()): Promise<string> {
  return enqueuePoll(ctx, { slot: pollSlot('manual', now), scheduledAt: now });
}

const OVERVIEW_JOB_OPTS: JobsOptions = { attempts: 3, removeOnComplete: true, removeOnFail: { age: 3600 } };

/**
 * Ask for the overview to be rewritten at the end of the current OVERVIEW_REFRESH_MS window: every comparison of
 * the window adds the same job id (`overview~<window>`, a no-op once added), so a burst of a thousand comparisons
 * costs one rewrite per window, and the rewrite runs after the last of them. Returns the job id (none when off).
 */
export async function enqueueOverview(
  ctx: PollQueues & { config: { OVERVIEW_REFRESH_MS: number } },
  now = Date.now(),
): Promise<string | undefined> {
  const ms = ctx.config.OVERVIEW_REFRESH_MS;
  if (ms === 0) return undefined;
  const window = Math.floor(now / ms);
  const id = jobId('overview', window);
  const data: OverviewJobData = { requestedAt: now };
  await ctx.queues.poll.add(OVERVIEW_JOB, data, { jobId: id, delay: (window + 1) * ms - now, ...OVERVIEW_JOB_OPTS });
  return id;
}

/**
 * The poll schedule (node-cron, POLL_CRON, default every 5 minutes). Every worker process runs it; each tick adds
 * one poll job whose id is derived from the cron slot (`poll~<slot epoch s>`), so however many schedulers tick,
 * BullMQ keeps one job per slot (ids of completed jobs are kept a day, queues.ts) and exactly one worker runs it.
 *
 * The slot is the scheduled time, truncated to the minute for a 5-field expression (to the second for a 6-field
 * one): hosts whose clocks differ by less than that still agree on the slot.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../../core/index.ts';
import { enqueuePoll } from '../../queues/index.ts';
import type { Queues } from '../../redis/index.ts';

export interface PollSchedule {
  task: ScheduledTask;
  stop(): Promise<void>;
}

/** The slot a tick of `pattern` at `date` stands for, in epoch seconds. */
export function pollSlot(date: Date, pattern: string): number {
  const seconds = Math.floor(date.getTime() / 1000);
  const hasSecondsField = pattern.trim().split(/\s+/).length >= 6;
  return hasSecondsField ? seconds : seconds - (((seconds % 60) + 60) % 60);
}

/** Add the poll job of the slot `date` falls in (a no-op when another scheduler already added it). */
export async function enqueueScheduledPoll(
  ctx: { queues: Pick<Queues, 'poll'> },
  date: Date,
  pattern: string,
): Promise<string> {
  const slot = pollSlot(date, pattern);
  return enqueuePoll(ctx, { slot: String(slot), scheduledAt: slot * 1000 });
}

export function startPollSchedule(
  ctx: { queues: Pick<Queues, 'poll'>; logger: Logger; config: { POLL_CRON: string } },
  pattern = ctx.config.POLL_CRON,
): PollSchedule {
  const task = cron.schedule(
    pattern,
    async (c) => {
      try {
        const id = await enqueueScheduledPoll(ctx, c.date, pattern);
        ctx.logger.debug({ jobId: id }, 'poll enqueued for this slot');
      } catch (err) {
        ctx.logger.warn({ err }, 'could not enqueue the scheduled poll (the next slot will try again)');
      }
    },
    { name: 'rfq-sync-poll', noOverlap: true },
  );
  return {
    task,
    async stop() {
      await task.destroy();
    },
  };
}

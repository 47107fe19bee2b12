/**
 * Queue `notify`: send one message of a notification route (produced by src/notify/notifier.ts, run by
 * jobs/notify.ts; docs/notifications.md).
 *
 * Payload: { route, message } (notifyJobSchema): which message of which route to send.
 * Job id:  `notify~<route>~<message>`: one job per message; a digest's job is added, delayed to the end of its
 *          window, by the route's first event.
 * Options: NOTIFY_ATTEMPTS attempts, exponential back-off from NOTIFY_BACKOFF_MS; priority 10 (after the others that
 *          wait) for a route that picks only procurement events, so IT's events are never queued behind them.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from './job-id.ts';
import type { QueueModule } from './queue-module.ts';

export const notifyJobSchema = z.object({ route: z.string().min(1), message: z.string().min(1) });
export type NotifyJobData = z.infer<typeof notifyJobSchema>;

export const notifyQueue = {
  key: 'notify',
  name: 'notify',
  jobs: { notify: notifyJobSchema },
  idPrefixes: ['notify'],
} as const satisfies QueueModule;

export interface NotifyJobOptions {
  /** The route picks only procurement events: sent after the others that wait. */
  procurementOnly: boolean;
  delayMs: number;
  attempts: number;
  backoffMs: number;
}

/** Add the job that sends a message (a no-op while it exists). */
export async function enqueueNotify(
  queue: Pick<Queue, 'add'>,
  data: NotifyJobData,
  o: NotifyJobOptions,
): Promise<void> {
  await queue.add('notify', data, {
    jobId: jobId('notify', data.route, data.message),
    ...(o.procurementOnly ? { priority: 10 } : {}),
    delay: o.delayMs,
    attempts: o.attempts,
    backoff: { type: 'exponential', delay: o.backoffMs, jitter: 0.5 },
  });
}

/**
 * Before a run that ends (`once`, the demo) stops: the digests whose window is still open are sent now instead of
 * waiting for a worker after the window (a daily digest keeps its time: the next worker sends it), and the run waits
 * for them at most NOTIFY_ONCE_WAIT_MS. A channel that fails is not waited for: its retries stay queued for the next
 * worker or run, and so do the messages not sent by the end of the wait.
 */
import type { Queue } from 'bullmq';
import type { NotifyConfig, NotifySettings } from './notify-settings.ts';

/** Past the longest send deadline of the channels, by default: a send begun at the drain ends within it. */
const PAST_DEADLINE_MS = 5_000;

/** How long `once` waits for its notifications: NOTIFY_ONCE_WAIT_MS, or the longest `timeout_ms` plus 5 s. */
export function onceWaitMs(config: Pick<NotifyConfig, 'NOTIFY_ONCE_WAIT_MS'>, settings: NotifySettings): number {
  if (config.NOTIFY_ONCE_WAIT_MS !== undefined) return config.NOTIFY_ONCE_WAIT_MS;
  const deadlines = [...settings.channels.values()].map((c) => c.kind.timeoutMs(c.options));
  return Math.max(0, ...deadlines) + PAST_DEADLINE_MS;
}

/** Messages not sent yet, the daily digests left out (they keep their time). */
export async function unsentMessages(queue: Queue): Promise<number> {
  const c = await queue.getJobCounts('waiting', 'active', 'prioritized');
  const delayed = (await queue.getDelayed()).filter(
    (j) => !String((j.data as { message?: unknown } | undefined)?.message ?? '').startsWith('d'),
  );
  return (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) + delayed.length;
}

/** Promotes the waiting digest windows and single messages, then waits up to `waitMs` for them to be taken. */
export async function sendOpenDigestsNow(queue: Queue, waitMs: number): Promise<number> {
  let n = 0;
  for (const job of await queue.getDelayed()) {
    const message = (job.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && !message.startsWith('d')) {
      await job.promote().catch(() => undefined); // a job that started meanwhile
      n++;
    }
  }
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    const c = await queue.getJobCounts('waiting', 'active', 'prioritized');
    if ((c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return n;
}

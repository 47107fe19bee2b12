/**
 * Before a run that ends (`once`, the demo) stops: the digests whose window is still open are sent now instead of
 * waiting for a worker after the window (a daily digest keeps its time: the next worker sends it), and the run waits
 * for them a little. A channel that fails is not waited for: its retries stay queued for the next worker or run.
 */
import type { Queue } from 'bullmq';

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

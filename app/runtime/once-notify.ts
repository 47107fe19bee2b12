/**
 * The end of `rfq-sync once`: its notifications, waited for at most NOTIFY_ONCE_WAIT_MS from the drain of its
 * pipeline (src/notify/flush.ts). What is not sent by then stays queued for the next worker or run: the sends under
 * way are stopped and go back to the queue as they were (not a failed attempt), and one line says how many are left.
 */
import type { Logger } from '../../src/core/index.ts';
import { onceWaitMs, sendOpenDigestsNow, unsentMessages } from '../../src/notify/index.ts';
import type { RunningPipeline } from './pipeline-runner.ts';

/** `until`: the run's own deadline (--max-wait), which the wait never passes. */
export async function awaitOnceNotifications(
  pipeline: RunningPipeline,
  config: Parameters<typeof onceWaitMs>[0],
  logger: Logger,
  until: number,
): Promise<void> {
  const { ctx } = pipeline;
  const setting = onceWaitMs(config, ctx.notify.settings);
  const waitMs = Math.min(setting, Math.max(0, until - Date.now()));
  logger.info(
    { event: 'once.notify-wait', waitMs },
    `once: the pipeline is drained; waiting up to ${waitMs} ms for the notifications`,
  );
  await sendOpenDigestsNow(ctx.queues.notify, waitMs);
  const left = await unsentMessages(ctx.queues.notify);
  if (left === 0) return;
  // stop taking messages, then stop the sends under way: each goes back to the queue (jobs/notify.ts)
  await pipeline.worker.workers.find((w) => w.name === ctx.queues.notify.name)?.pause(true);
  await ctx.notify.close();
  logger.warn(
    { event: 'once.notify-left', messages: left, waitMs: setting },
    `once: ${left} notification(s) not sent within NOTIFY_ONCE_WAIT_MS (${setting} ms): kept queued for the next worker or run`,
  );
}

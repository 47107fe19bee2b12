/**
 * The IT events no job sees happen (docs/notifications.md#events): the sourcing service unreachable (every poll
 * failed for longer than NOTIFY_UNREACHABLE_MS) and the poll stuck (none finished for longer than
 * NOTIFY_POLL_STUCK_MS), read from the poll history in Redis every NOTIFY_CHECK_MS by every worker that runs the
 * schedules. Each outage is one event (its start is its identity), however many workers see it. While the token is
 * refused, polls pause on purpose: that has its own event, so neither is raised then.
 */
import { pollStuck, serviceUnreachable } from '../../src/notify/events/index.ts';
import type { notifySettings, SettingValues } from '../../src/settings/index.ts';
import type { WorkerServices } from '../../src/worker/index.ts';
import { lastSuccessfulPollAt, pollHistory } from '../../src/tracking/index.ts';

/** The settings the watch reads: how long a poll may be stuck or failing before IT is told, and how often it looks. */
export type PollHealthConfig = Pick<
  SettingValues<typeof notifySettings>,
  'NOTIFY_POLL_STUCK_MS' | 'NOTIFY_UNREACHABLE_MS' | 'NOTIFY_CHECK_MS'
>;

type WatchContext = Pick<WorkerServices, 'redis' | 'keys' | 'notify' | 'authGate' | 'logger'> & {
  config: PollHealthConfig;
};

/** One look; `watchingSince`: when this worker began to watch (the poll counts as stuck from then at the latest). */
export async function checkPollHealth(ctx: WatchContext, watchingSince: number, now = Date.now()): Promise<void> {
  if (!ctx.notify.enabled || ctx.authGate.isPaused()) return;
  const c = ctx.config;
  const polls = (await pollHistory(ctx, 100)).filter((p) => !p.skipped);
  const last = polls[0];
  const quietSince = last?.finishedAt ?? watchingSince;
  if (now - quietSince > c.NOTIFY_POLL_STUCK_MS)
    await ctx.notify.emit(
      pollStuck.event({ ...(last ? { lastPollAt: last.finishedAt } : {}), stuckMs: now - quietSince }),
    );
  if (!last || last.ok) return;
  const lastOk = await lastSuccessfulPollAt(ctx);
  const failing = polls.filter((p) => !p.ok && p.finishedAt > (lastOk ?? 0));
  const since = Math.min(...failing.map((p) => p.startedAt));
  if (now - since > c.NOTIFY_UNREACHABLE_MS)
    await ctx.notify.emit(
      serviceUnreachable.event({
        since,
        ...(lastOk !== undefined ? { lastOkAt: lastOk } : {}),
        failedPolls: failing.length,
        lastError: last.error ?? 'unknown error',
      }),
    );
}

export function startNotifyWatch(ctx: WatchContext): { stop(): void } {
  if (!ctx.notify.enabled) return { stop: () => undefined };
  const since = Date.now();
  const timer = setInterval(() => {
    checkPollHealth(ctx, since).catch((err: unknown) =>
      ctx.logger.warn({ err }, `notify: the poll health check failed: ${(err as Error).message}`),
    );
  }, ctx.config.NOTIFY_CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

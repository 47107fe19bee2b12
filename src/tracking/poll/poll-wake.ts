/**
 * A poll asked for by a webhook of the sourcing service (app/http/webhook.ts): a wake-up, never data. At most one such
 * poll waits at a time, and they start at least `minIntervalMs` apart, shared by every worker through Redis
 * (`hook:last`, the start of the last webhook poll, set atomically by pollWake-1.lua on Redis's clock): a webhook
 * that arrives while one waits adds nothing (the waiting poll starts after it arrived and reads what it announced),
 * so a flood of webhooks costs one poll per interval. The job is `poll~hook~<start ms>`, delayed to its start.
 */
import { defineScript, loadScript } from '../../redis/index.ts';
import type { TrackingContext } from '../context.ts';
import { enqueuePoll, pollSlot } from '../../queues/index.ts';

export type WakeContext = Pick<TrackingContext, 'redis' | 'keys' | 'queues'>;

export interface Wake {
  /** `scheduled`: this call added the poll starting at `at`; `pending`: one already waits (starting at `at`). */
  outcome: 'scheduled' | 'pending';
  at: number;
}

/** pollWake-1.lua's answer: the waiting poll's start (ms), 1 when this call scheduled it, Redis's clock (ms). */
type WakeReply = [at: number, scheduled: number, now: number];

const WAKE_SCRIPT = loadScript<WakeReply>('pollWake-1.lua');

export async function wakePoll(ctx: WakeContext, minIntervalMs: number): Promise<Wake> {
  const wake = defineScript(ctx.redis, WAKE_SCRIPT);
  const [at, scheduled, now] = await wake([ctx.keys.key('hook', 'last')], [minIntervalMs]);
  if (scheduled !== 1) return { outcome: 'pending', at };
  await enqueuePoll(ctx, { slot: pollSlot('webhook', at), scheduledAt: at }, at - now);
  return { outcome: 'scheduled', at };
}

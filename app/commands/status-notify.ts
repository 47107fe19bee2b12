/**
 * The notifications being retried, for `rfq-sync status`: a channel that fails or stalls shows here from its first
 * failed attempt, while its retries go on (the failures list has a message only after its last attempt). Read from
 * the notify queue alone (the notification settings are not needed, nor checked): the messages waiting for another
 * attempt, grouped by route; the channel is the one the last error names (`channel <name>: ...`).
 */
import type { Queue } from 'bullmq';
import { QUEUE_NAMES } from '../../src/queues/index.ts';

export interface NotifyRetrying {
  route: string;
  /** The channel the last error names. */
  channel: string | null;
  /** Messages of this route waiting for another attempt. */
  messages: number;
  /** Attempts made so far by the message that made most, and how many it gets (NOTIFY_ATTEMPTS). */
  attempts: number;
  maxAttempts: number;
  /** The last error of that message, its first line. */
  reason: string;
  /** ISO time that attempt started. */
  at: string | null;
}

/** At most this many retrying messages are read. */
const READ = 500;

export async function notifyRetrying(ctx: { queues: { all: Queue[] } }): Promise<NotifyRetrying[]> {
  const q = ctx.queues.all.find((x) => x.name === QUEUE_NAMES.notify);
  if (!q) return [];
  const jobs = [...(await q.getDelayed(0, READ - 1)), ...(await q.getActive(0, READ - 1))];
  const byRoute = new Map<string, NotifyRetrying>();
  for (const j of jobs) {
    if (!j || j.attemptsMade === 0 || !j.failedReason) continue;
    const route = String((j.data as { route?: unknown } | undefined)?.route ?? '?');
    const known = byRoute.get(route);
    const reason = (j.failedReason.split('\n')[0] ?? '').slice(0, 300);
    const entry: NotifyRetrying = {
      route,
      channel: /^channel ([^:\s]+):/.exec(reason)?.[1] ?? null,
      messages: (known?.messages ?? 0) + 1,
      attempts: j.attemptsMade,
      maxAttempts: j.opts.attempts ?? 1,
      reason,
      at: j.processedOn ? new Date(j.processedOn).toISOString() : null,
    };
    byRoute.set(route, known && known.attempts >= j.attemptsMade ? { ...known, messages: entry.messages } : entry);
  }
  return [...byRoute.values()].sort((a, b) => a.route.localeCompare(b.route));
}

export function notifyRetryingLines(r: NotifyRetrying[]): string[] {
  if (r.length === 0) return [];
  return [
    'NOTIFICATIONS RETRYING (a channel failing or not answering in time; kept as failed after their last attempt):',
    ...r.map(
      (n) =>
        `  route ${n.route}${n.channel ? ` (channel ${n.channel})` : ''}: ${n.messages} message(s), attempt ${n.attempts} of ${n.maxAttempts} failed${n.at ? ` (started ${n.at})` : ''}: ${n.reason}`,
    ),
  ];
}

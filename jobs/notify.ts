/**
 * notify: send one message of a notification route (src/notify/notifier.ts deliver; docs/notifications.md).
 *
 * Payload:  { route, message } (src/queues/notify.ts). Job id `notify~<route>~<message>`: one job
 *           per message; a digest's job is added, delayed to the end of its window, by the route's first event.
 * Reads:    the message's events and its send record in Redis; the files it attaches (comparison workbooks).
 * Writes:   the message through the route's channel (SMTP, Teams, Slack, webhook); the send record, `sending` before
 *           and `sent` after: a message recorded `sent` is never sent again, one left `sending` by a crash is sent
 *           once more.
 * Errors:   a channel that fails (NotifyError: refused, time-out, non-2xx) is retried with back-off, NOTIFY_ATTEMPTS
 *           times in all, then kept as failed (`rfq-sync failed list`, `failed retry`); on that last failure the
 *           other routes are told (channel-failing). Nothing of the pipeline waits for this queue. A bad payload is
 *           unrecoverable. Each send ends within its channel's `timeout_ms` (src/notify/send-deadline.ts).
 * Slots:    a channel sends at most NOTIFY_CONCURRENCY messages at once per process (src/notify/channel-slots.ts):
 *           a message whose channel has no free slot goes back to the queue for a while (not an attempt), so a
 *           stalled channel never holds another channel's messages. A send stopped because the worker stops goes
 *           back to the queue the same way (`once` at the end of NOTIFY_ONCE_WAIT_MS).
 */
import { DelayedError, type Job } from 'bullmq';
import { NotifyStoppedError } from '../src/core/index.ts';
import type { WorkerServices } from '../src/worker/index.ts';
import type { AuditEvent } from '../src/audit/index.ts';
import { createMessageStore, type DeliveryResult } from '../src/notify/index.ts';
import type { AuditLines, AuditLinesContext } from './audit-lines.ts';
import { notifyQueue, parseJob } from '../src/queues/index.ts';

/** A message whose send was stopped is taken again after this, ms (by the next worker: this one stops). */
const STOPPED_RETRY_MS = 1_000;

/** What this job returns: BullMQ keeps it as the job's return value. */
export type NotifyJobResult = DeliveryResult;

export async function processNotify(
  ctx: Pick<WorkerServices, 'notify' | 'logger'>,
  job: Job,
): Promise<NotifyJobResult> {
  const { data } = parseJob(notifyQueue, job);
  const slot = ctx.notify.reserve(data);
  if ('retryInMs' in slot) {
    await job.moveToDelayed(Date.now() + slot.retryInMs, job.token);
    throw new DelayedError();
  }
  try {
    return await ctx.notify.deliver(data);
  } catch (err) {
    if (err instanceof NotifyStoppedError) {
      await job.moveToDelayed(Date.now() + STOPPED_RETRY_MS, job.token);
      throw new DelayedError();
    }
    const attempts = job.attemptsMade + 1;
    if (attempts >= (job.opts.attempts ?? 1))
      await ctx.notify
        .undelivered(data, `${job.queueName}:${String(job.id)}`, attempts, err as Error)
        .catch((e: unknown) =>
          ctx.logger.warn({ err: e }, 'notify: could not tell the other routes of a failed message'),
        );
    throw err;
  } finally {
    slot.release();
  }
}

/** A message sent (jobs/audit-lines.ts). */
export const auditLines: AuditLines<NotifyJobResult> = { end: notifyEvents };

/**
 * A message sent: its route and id, and what it told of (kinds, RFQs, requisitions), read back from the message's
 * events (taking a message again returns the same events and changes nothing).
 */
async function notifyEvents(ctx: AuditLinesContext, _job: Job, res: NotifyJobResult): Promise<AuditEvent[]> {
  if (res.status !== 'sent' && res.status !== 'already-sent') return [];
  const events = await createMessageStore(ctx.redis, ctx.keys.key)
    .take(res.route, res.message)
    .catch(() => []);
  const data = events.map((e) => (e.data ?? {}) as { rfqId?: unknown; requisition?: unknown });
  const rfqIds = [...new Set(data.flatMap((d) => (typeof d.rfqId === 'number' ? [d.rfqId] : [])))];
  const requisitions = [...new Set(data.flatMap((d) => (typeof d.requisition === 'string' ? [d.requisition] : [])))];
  const kinds = [...new Set(events.map((e) => e.kind))];
  const one = requisitions.length === 1 ? /^([^/]+)\/(.+)$/.exec(requisitions[0]!) : null;
  return [
    {
      event: 'notification-sent',
      summary: `notification ${res.message} (${kinds.join(', ') || `${res.events} event(s)`}) sent on route ${res.route}${res.repeated ? ', once more after a crash' : ''}`,
      route: res.route,
      message_id: res.message,
      events: res.events,
      kinds,
      outcome: res.status,
      ...(rfqIds.length === 1 ? { rfq_id: rfqIds[0] } : {}),
      ...(rfqIds.length > 0 ? { rfq_ids: rfqIds } : {}),
      ...(one ? { profile: one[1], key: one[2] } : {}),
    },
  ];
}

/**
 * The notifier of a worker context: `emit` puts an event in the message of every route that picks it (a few Redis
 * calls: it never waits for a mail server, so it never delays the pipeline), and makes sure the job that sends that
 * message exists on the `notify` queue; `deliver` is that job's work (jobs/notify.ts). docs/notifications.md#delivery
 * says what a crash costs at each step:
 *   - emit: the callers emit before they record their own work as done, and an event is added to a message of a route
 *     at most once (its mark), so a retried comparison or ingest emits again harmlessly. For a digest the send job is
 *     added before the event (a crash between leaves a job that finds nothing, never an event without a job); for a
 *     message of its own, after (and again on every emit, a no-op while the job exists).
 *   - deliver: the message is taken (closed to new events), its send recorded `sending`, sent, recorded `sent`. A
 *     crash between the two records sends it once more when the job runs again.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { UnexpectedError } from '../errors.ts';
import { scrubSecrets, type Logger } from '../logger.ts';
import { jobId } from '../redis/queues.ts';
import type { Channel } from './channel.ts';
import { composeMessage } from './compose.ts';
import type { NotifyEvent } from './event-kind.ts';
import { channelFailing } from './events/index.ts';
import { createMessageStore } from './message-store.ts';
import { resolveNotifySettings, type NotifySettings, type ResolvedRoute } from './notify-settings.ts';
import { routesFor } from './routing.ts';
import { dailyMessage, ownMessage, windowMessage, type Slot } from './windows.ts';

/** The notify job's payload: which message of which route to send. */
export const notifyJobSchema = z.object({ route: z.string().min(1), message: z.string().min(1) });
export type NotifyJobData = z.infer<typeof notifyJobSchema>;

export interface DeliveryResult {
  route: string;
  message: string;
  status: 'sent' | 'already-sent' | 'empty' | 'route-gone';
  events: number;
  /** Sent once more after a crash interrupted an earlier send. */
  repeated?: boolean;
}

export interface Notifier {
  /** False when no route is configured: emit does nothing. */
  readonly enabled: boolean;
  readonly settings: NotifySettings;
  /** Adds the event to the messages of the routes that pick it (not those through `exceptChannel`). */
  emit(event: NotifyEvent, o?: { exceptChannel?: string }): Promise<void>;
  deliver(job: NotifyJobData): Promise<DeliveryResult>;
  /** The message's last attempt failed: the other routes are told (channel-failing), unless it was such a notice. */
  undelivered(job: NotifyJobData, ref: string, attempts: number, err: Error): Promise<void>;
  /** Sends these events through a route's channel now, without Redis (`rfq-sync notify test`). */
  sendNow(route: string, events: NotifyEvent[]): Promise<void>;
  close(): Promise<void>;
}

export interface NotifierDeps {
  config: Config;
  redis: Redis;
  /** A key under the account's namespace (RedisKeys.key). */
  keyOf: (...parts: string[]) => string;
  queue: Pick<Queue, 'add'>;
  logger: Logger;
}

/** Throws ConfigError when the notification settings are wrong. */
export function createNotifier(d: NotifierDeps): Notifier {
  const { config } = d;
  const settings = resolveNotifySettings(config);
  const store = createMessageStore(d.redis, d.keyOf);
  const log = d.logger.child({ component: 'notify' });
  const open = new Map<string, Channel>();
  const channelOf = (name: string): Channel => {
    let ch = open.get(name);
    if (!ch) {
      const c = settings.channels.get(name);
      if (!c) throw new UnexpectedError(`notify: channel ${name} is not configured`);
      open.set(name, (ch = c.kind.create(c.options, { name, logger: log })));
    }
    return ch;
  };
  const compose = (route: ResolvedRoute, events: NotifyEvent[], message: string) =>
    composeMessage(events, {
      id: `${route.name}~${message}`,
      route: route.name,
      account: config.account,
      outbox: config.folders.outbox,
      shownAs: config.NOTIFY_OUTBOX_SHOWN_AS,
      attachMaxBytes: (() => {
        const c = settings.channels.get(route.channel)!;
        return c.kind.attachMaxBytes(c.options);
      })(),
    });

  const addJob = (route: string, slot: Slot, now: number) =>
    d.queue.add('notify', { route, message: slot.message } satisfies NotifyJobData, {
      jobId: jobId('notify', route, slot.message),
      delay: Math.max(0, slot.sendAt - now),
      attempts: config.NOTIFY_ATTEMPTS,
      backoff: { type: 'exponential', delay: config.NOTIFY_BACKOFF_MS, jitter: 0.5 },
    });

  const enqueue = async (route: ResolvedRoute, event: NotifyEvent): Promise<void> => {
    if (route.digest === 'immediate' || (route.digest === 'window' && config.NOTIFY_DIGEST_MS === 0)) {
      const slot = ownMessage(event.id, Date.now());
      await store.add(route.name, slot.message, event);
      await addJob(route.name, slot, slot.sendAt);
      return;
    }
    for (let tries = 0; tries < 5; tries++) {
      let slot: Slot;
      let now = Date.now();
      if (route.digest === 'daily') slot = dailyMessage(now, config.NOTIFY_DAILY_AT, config.TIME_ZONE);
      else {
        const w = await store.openWindow(route.name, config.NOTIFY_DIGEST_MS);
        slot = windowMessage(w.start, config.NOTIFY_DIGEST_MS);
        now = w.now;
      }
      await addJob(route.name, slot, now);
      if ((await store.add(route.name, slot.message, event)) !== 'taken') return;
    }
    throw new UnexpectedError(`notify: route ${route.name}: no open message took event ${event.id}`);
  };

  const notifier: Notifier = {
    enabled: settings.routes.size > 0,
    settings,
    async emit(event, o = {}) {
      for (const route of routesFor(settings, event, o)) await enqueue(route, event);
    },
    async deliver(job) {
      const route = settings.routes.get(job.route);
      const base = { route: job.route, message: job.message };
      if (!route) {
        log.warn(base, `notify: route ${job.route} is no longer configured: its message is dropped`);
        return { ...base, status: 'route-gone', events: 0 };
      }
      const events = await store.take(route.name, job.message);
      if (events.length === 0) return { ...base, status: 'empty', events: 0 };
      const rec = await store.record(route.name, job.message);
      if (rec.state === 'sent') return { ...base, status: 'already-sent', events: events.length };
      const repeated = rec.state === 'sending';
      if (repeated)
        log.warn(
          { ...base, event: 'notify.repeat' },
          `notify: route ${route.name}: an earlier send of message ${job.message} was interrupted; sending it again (it may arrive twice)`,
        );
      const message = await compose(route, events, job.message);
      const attempt = rec.attempts + 1;
      await store.mark(route.name, job.message, 'sending', attempt);
      try {
        await channelOf(route.channel).send(message, route.to);
      } catch (err) {
        await store.mark(route.name, job.message, 'failed', attempt).catch(() => undefined);
        throw err;
      }
      await store.mark(route.name, job.message, 'sent', attempt);
      log.info(
        { ...base, event: 'notify.sent', channel: route.channel, events: events.length },
        `notify: route ${route.name}: sent "${message.subject}" through ${route.channel}`,
      );
      return { ...base, status: 'sent', events: events.length, ...(repeated ? { repeated } : {}) };
    },
    async undelivered(job, ref, attempts, err) {
      const route = settings.routes.get(job.route);
      if (!route) return;
      const events = await store.take(route.name, job.message);
      if (events.some((e) => e.kind === channelFailing.name)) return; // never a notice about a notice
      const notice = channelFailing.event({
        channel: route.channel,
        route: route.name,
        job: ref,
        attempts,
        events: events.length,
        error: scrubSecrets(err.message).slice(0, 500),
      });
      await notifier.emit(notice, { exceptChannel: route.channel });
    },
    async sendNow(name, events) {
      const route = settings.routes.get(name);
      if (!route) throw new UnexpectedError(`notify: no route ${name}`);
      await channelOf(route.channel).send(await compose(route, events, `now-${Date.now()}`), route.to);
    },
    async close() {
      await Promise.allSettled([...open.values()].map((c) => c.close()));
      open.clear();
    },
  };
  return notifier;
}

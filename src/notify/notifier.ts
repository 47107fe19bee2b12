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
import type { RedisKeys } from '../redis/index.ts';
import { UnexpectedError, type Logger } from '../core/index.ts';
import { enqueueNotify, type NotifyJobData } from '../queues/index.ts';
import { deliverMessage, notifierCore, undeliveredNotice, type DeliveryResult } from './delivery.ts';
import type { SlotReservation } from './channel-slots.ts';
import { audiencesOf, type NotifyEvent } from './event-kind.ts';
import { EVENT_KINDS, type NotifierConfig, type NotifySettings, type ResolvedRoute } from './notify-settings.ts';
import { routesFor } from './routing.ts';
import { dailyMessage, ownMessage, windowMessage, type Slot } from './windows.ts';

/** The notify job's payload, which message of which route to send: src/queues/notify.ts. */

export interface Notifier {
  /** False when no route is configured: emit does nothing. */
  readonly enabled: boolean;
  readonly settings: NotifySettings;
  /** Adds the event to the messages of the routes that pick it (not those through `exceptChannel`). */
  emit(event: NotifyEvent, o?: { exceptChannel?: string }): Promise<void>;
  deliver(job: NotifyJobData): Promise<DeliveryResult>;
  /** A send slot of the job's channel in this process (src/notify/channel-slots.ts), or how long to wait for one. */
  reserve(job: NotifyJobData): SlotReservation;
  /** The send slots of every channel together: the notify worker's concurrency. */
  readonly sendSlots: number;
  /** The message's last attempt failed: the other routes are told (channel-failing), unless it was such a notice. */
  undelivered(job: NotifyJobData, ref: string, attempts: number, err: Error): Promise<void>;
  close(): Promise<void>;
}

export interface NotifierDeps {
  config: NotifierConfig;
  redis: Redis;
  /** The account's namespace: the message store makes its keys under it. */
  keys: Pick<RedisKeys, 'key'>;
  queue: Pick<Queue, 'add'>;
  logger: Logger;
}

/** Throws ConfigError when the notification settings are wrong. */
export function createNotifier(d: NotifierDeps): Notifier {
  const core = notifierCore(d);
  const { config, settings, store } = core;
  // IT's events (channel-failing among them) are never queued behind procurement's messages: a route that picks
  // only procurement events is sent after the others that wait (BullMQ runs jobs without a priority first).
  const procurementOnly = (route: ResolvedRoute) =>
    [...route.events].every((e) => {
      const kind = EVENT_KINDS.get(e);
      // an event for procurement and IT both is IT's on IT's routes; on this one, procurement's
      return kind !== undefined && audiencesOf(kind).includes('procurement');
    });
  const addJob = (route: ResolvedRoute, slot: Slot, now: number) =>
    enqueueNotify(
      d.queue,
      { route: route.name, message: slot.message },
      {
        procurementOnly: procurementOnly(route),
        delayMs: Math.max(0, slot.sendAt - now),
        attempts: config.NOTIFY_ATTEMPTS,
        backoffMs: config.NOTIFY_BACKOFF_MS,
      },
    );

  const enqueue = async (route: ResolvedRoute, event: NotifyEvent): Promise<void> => {
    if (route.digest === 'immediate' || (route.digest === 'window' && config.NOTIFY_DIGEST_MS === 0)) {
      const slot = ownMessage(event.id, Date.now());
      await store.add(route.name, slot.message, event);
      await addJob(route, slot, slot.sendAt);
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
      await addJob(route, slot, now);
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
    deliver: (job) => deliverMessage(core, job),
    reserve(job) {
      const route = settings.routes.get(job.route);
      return route ? core.reserve(route.channel) : { release: () => undefined };
    },
    sendSlots: core.sendSlots,
    async undelivered(job, ref, attempts, err) {
      const notice = await undeliveredNotice(core, job, ref, attempts, err);
      if (notice) await notifier.emit(notice.event, { exceptChannel: notice.channel });
    },
    close: () => core.close(),
  };
  return notifier;
}

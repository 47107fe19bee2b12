/**
 * Sending one message of a route (the notify job's work): take it (closed to new events), record the send
 * `sending`, send it through the route's channel, record it `sent`. A message found `sent` is not sent again; one
 * found `sending` was interrupted by a crash between the two records and goes once more (docs/notifications.md).
 * When its last attempt fails, the other routes are told (channel-failing), never about a notice of that kind.
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/index.ts';
import { UnexpectedError, scrubSecrets, type Logger } from '../core/index.ts';
import type { Channel } from './channel.ts';
import { composeMessage } from './compose.ts';
import type { NotifyEvent } from './event-kind.ts';
import { channelFailing } from './events/index.ts';
import { createMessageStore, type MessageStore } from './message-store.ts';
import { channelSlots, type SlotReservation } from './channel-slots.ts';
import { sendWithin } from './send-deadline.ts';
import type { OutgoingMessage } from './message.ts';
import {
  resolveNotifySettings,
  type NotifierConfig,
  type NotifySettings,
  type ResolvedRoute,
} from './notify-settings.ts';

export interface DeliveryResult {
  route: string;
  message: string;
  status: 'sent' | 'already-sent' | 'empty' | 'route-gone';
  events: number;
  /** Sent once more after a crash interrupted an earlier send. */
  repeated?: boolean;
}

/** What the notifier's parts share: settings, the message store, the open channels. */
export interface NotifierCore {
  config: NotifierConfig;
  settings: NotifySettings;
  store: MessageStore;
  log: Logger;
  channelOf(name: string): Channel;
  /** A send slot of the channel (channel-slots.ts), or how long to wait for one. */
  reserve(channel: string): SlotReservation;
  /** Send slots of all channels together (the notify worker's concurrency). */
  sendSlots: number;
  /** One send, within the channel's deadline (send-deadline.ts); close() stops those under way. */
  send(channel: string, m: OutgoingMessage, to: readonly string[] | undefined): Promise<void>;
  compose(route: ResolvedRoute, events: NotifyEvent[], message: string): Promise<OutgoingMessage>;
  close(): Promise<void>;
}

export function notifierCore(d: {
  config: NotifierConfig;
  redis: Redis;
  keys: Pick<RedisKeys, 'key'>;
  logger: Logger;
}): NotifierCore {
  const { config } = d;
  const settings = resolveNotifySettings(config);
  const log = d.logger.child({ component: 'notify' });
  const open = new Map<string, Channel>();
  const slots = channelSlots(config.NOTIFY_CONCURRENCY);
  const stop = new AbortController();
  const configured = (name: string) => {
    const c = settings.channels.get(name);
    if (!c) throw new UnexpectedError(`notify: channel ${name} is not configured`);
    return c;
  };
  const channelOf = (name: string): Channel => {
    let ch = open.get(name);
    if (!ch) {
      const c = configured(name);
      open.set(name, (ch = c.kind.create(c.options, { name, logger: log })));
    }
    return ch;
  };
  return {
    config,
    settings,
    store: createMessageStore(d.redis, d.keys.key),
    log,
    channelOf,
    reserve(name) {
      const c = settings.channels.get(name);
      return c ? slots.take(name, c.kind.timeoutMs(c.options)) : { release: () => undefined };
    },
    sendSlots: config.NOTIFY_CONCURRENCY * Math.max(1, settings.channels.size),
    send(name, m, to) {
      const c = configured(name);
      return sendWithin(name, channelOf(name), m, to, { timeoutMs: c.kind.timeoutMs(c.options), stop: stop.signal });
    },
    compose(route, events, message) {
      const c = configured(route.channel);
      return composeMessage(events, {
        id: `${route.name}~${message}`,
        route: route.name,
        account: config.account,
        outbox: config.folders.outbox,
        shownAs: config.NOTIFY_OUTBOX_SHOWN_AS,
        attachMaxBytes: c.kind.attachMaxBytes(c.options),
      });
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...open.values()].map((c) => c.close()));
      open.clear();
    },
  };
}

export async function deliverMessage(
  core: NotifierCore,
  job: { route: string; message: string },
): Promise<DeliveryResult> {
  const { store, log } = core;
  const route = core.settings.routes.get(job.route);
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
  const message = await core.compose(route, events, job.message);
  const attempt = rec.attempts + 1;
  await store.mark(route.name, job.message, 'sending', attempt);
  try {
    await core.send(route.channel, message, route.to);
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
}

/** The channel-failing notice of a message whose last attempt failed; none for a notice of that kind. */
export async function undeliveredNotice(
  core: NotifierCore,
  job: { route: string; message: string },
  ref: string,
  attempts: number,
  err: Error,
): Promise<{ event: NotifyEvent; channel: string } | undefined> {
  const route = core.settings.routes.get(job.route);
  if (!route) return undefined;
  const events = await core.store.take(route.name, job.message);
  if (events.some((e) => e.kind === channelFailing.name)) return undefined;
  const event = channelFailing.event({
    channel: route.channel,
    route: route.name,
    job: ref,
    attempts,
    events: events.length,
    error: scrubSecrets(err.message).slice(0, 500),
  });
  return { event, channel: route.channel };
}

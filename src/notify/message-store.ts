/**
 * The messages of the notification routes, in Redis (docs/notifications.md#delivery). A message is a list of events
 * named by its route and its window (`w<start>` a digest window, `d<time>` a daily digest, `e<hash>` one event on its
 * own); each event is added to at most one message per route (its mark), and a message once taken for sending takes
 * no more. The send itself is recorded before and after (`sending`, `sent`): a message found `sent` is never sent
 * again; one found `sending` was interrupted by a crash and goes once more. Everything expires after KEEP_MS.
 */
import type { Redis } from 'ioredis';
import { type RedisKeys, defineScript, loadScript } from '../redis/index.ts';
import { shortHash, type NotifyEvent } from './event-kind.ts';

/** How long marks, messages and their send records are kept: a failed message retried later than this sends nothing. */
export const KEEP_MS = 14 * 24 * 3600_000;

const WINDOW = loadScript<[start: number, now: number]>('notifyWindow-1.lua');
const PUSH = loadScript<'added' | 'dup' | 'taken'>('notifyPush-3.lua');
const TAKE = loadScript<string[]>('notifyTake-3.lua');

export type SendState = 'sending' | 'sent' | 'failed';

export interface SendRecord {
  state?: SendState;
  attempts: number;
  /** Unix ms of the last change. */
  at?: number;
}

export interface MessageStore {
  /** The start of the route's open digest window (opened now when none is), and Redis's clock. */
  openWindow(route: string, lengthMs: number): Promise<{ start: number; now: number }>;
  add(route: string, message: string, event: NotifyEvent): Promise<'added' | 'dup' | 'taken'>;
  /** The events of the message, taken for sending. */
  take(route: string, message: string): Promise<NotifyEvent[]>;
  record(route: string, message: string): Promise<SendRecord>;
  mark(route: string, message: string, state: SendState, attempts: number): Promise<void>;
}

export function createMessageStore(redis: Redis, keyOf: RedisKeys['key']): MessageStore {
  const scripts = {
    window: defineScript(redis, WINDOW),
    push: defineScript(redis, PUSH),
    take: defineScript(redis, TAKE),
  };
  const windowKey = (route: string) => keyOf('notify', 'window', route);
  const msgKey = (route: string, message: string, part: string) => keyOf('notify', 'msg', route, message, part);
  return {
    async openWindow(route, lengthMs) {
      const [start, now] = await scripts.window([windowKey(route)], [lengthMs]);
      return { start, now };
    },
    async add(route, message, event) {
      const mark = keyOf('notify', 'seen', route, shortHash(event.id));
      return scripts.push(
        [mark, msgKey(route, message, 'taken'), msgKey(route, message, 'events')],
        [JSON.stringify(event), KEEP_MS],
      );
    },
    async take(route, message) {
      const start = message.startsWith('w') ? message.slice(1) : '';
      const raw = await scripts.take(
        [msgKey(route, message, 'taken'), msgKey(route, message, 'events'), windowKey(route)],
        [start, KEEP_MS],
      );
      return raw.map((j) => JSON.parse(j) as NotifyEvent);
    },
    async record(route, message) {
      const h = await redis.hgetall(msgKey(route, message, 'sent'));
      return {
        ...(h.state ? { state: h.state as SendState } : {}),
        attempts: Number(h.attempts ?? 0),
        ...(h.at ? { at: Number(h.at) } : {}),
      };
    },
    async mark(route, message, state, attempts) {
      const key = msgKey(route, message, 'sent');
      await redis
        .multi()
        .hset(key, { state, attempts: String(attempts), at: String(Date.now()) })
        .pexpire(key, KEEP_MS)
        .exec();
    },
  };
}

/**
 * The rate limiter for calls to the sourcing service, shared by every worker on every host through Redis.
 *
 * Why not only BullMQ's limiter: it counts jobs started in back-to-back fixed windows, so the calls those jobs make
 * can bunch up across a window edge (up to twice the limit in a 1 s span, as the service would measure it). This
 * one is a sliding window on Redis's own clock (TIME, so host clocks do not matter), asked right before each call,
 * with a small safety margin on the window for the time between asking and the call reaching the service.
 * It also holds the service's `Retry-After`: after a 429, nobody calls until the wait is over (`holdOff`).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScript } from './redis-scripts.ts';
import type { RedisKeys } from './redis-keys.ts';

/**
 * Lua fragment taking one permit: sets the local `wait` to 0 (permit taken) or to the ms to wait. Expects the local
 * `now` (ms, from TIME). Shared with the claim script of the idempotency store, which takes the permit in the
 * same step as the claim (one round trip on the hot path).
 * Two rules: at most `limit` permits in any `window` (the hard bound), and permits spaced window/limit apart. The
 * spacing matters: a burst of permits given out at once leaves in a heap and reaches the service spread out by
 * queueing, so the next window's burst, on time, would meet the tail of the last one inside 1 s.
 */
export function ratePermitLua(windowKey: string, holdKey: string, limit: string, windowMs: string, member: string): string {
  return `
local wait = redis.call('PTTL', ${holdKey})
if wait <= 0 then
  wait = 0
  local window = tonumber(${windowMs})
  local limit = tonumber(${limit})
  redis.call('ZREMRANGEBYSCORE', ${windowKey}, '-inf', now - window)
  local last = redis.call('ZRANGE', ${windowKey}, -1, -1, 'WITHSCORES')
  local spacing = window / limit
  if last[2] and now < tonumber(last[2]) + spacing then
    wait = math.ceil(tonumber(last[2]) + spacing - now)
  elseif redis.call('ZCARD', ${windowKey}) >= limit then
    local oldest = redis.call('ZRANGE', ${windowKey}, 0, 0, 'WITHSCORES')
    wait = tonumber(oldest[2]) + window - now + 1
  else
    redis.call('ZADD', ${windowKey}, now, ${member})
    redis.call('PEXPIRE', ${windowKey}, window * 2)
  end
  if wait < 0 then wait = 0 end
end
`;
}

/*
 * KEYS[1] sliding-window sorted set (member -> ms), KEYS[2] hold-off key (PX = Retry-After)
 * ARGV[1] limit per window, ARGV[2] window ms, ARGV[3] unique member
 * Returns 0 when the call may go now, else the ms to wait before asking again.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
${ratePermitLua('KEYS[1]', 'KEYS[2]', 'ARGV[1]', 'ARGV[2]', 'ARGV[3]')}
return wait
`;

/* KEYS[1] hold-off key; ARGV[1] ms. Extends, never shortens, a hold-off already running. */
const HOLD_OFF = `
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then redis.call('SET', KEYS[1], '1', 'PX', ms) end
return 1
`;

export class ThrottledError extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(`calls to the sourcing service are held for ${waitMs} ms (rate limit or Retry-After)`);
    this.name = 'ThrottledError';
    this.waitMs = waitMs;
  }
}

export interface RateLimiter {
  /**
   * Wait for a permit to make one call. Waits in-process up to `maxWaitMs` (default 2 s); beyond that throws
   * ThrottledError so the caller can reschedule its job instead of holding a worker slot.
   */
  acquire(opts?: { maxWaitMs?: number; signal?: AbortSignal }): Promise<void>;
  /** The service said Retry-After: nobody calls for `ms`. */
  holdOff(ms: number): Promise<void>;
  readonly perSecond: number;
  /** For scripts that take a permit themselves (ratePermitLua). */
  readonly windowKey: string;
  readonly holdKey: string;
  readonly windowMs: number;
}

export interface RateLimiterOptions {
  perSecond: number;
  /** Added to the 1 s window (ms): the spread between a permit and the call arriving. Default 20. */
  marginMs?: number;
}

export function createRateLimiter(redis: Redis, keys: RedisKeys, o: RateLimiterOptions): RateLimiter {
  const acquireScript = defineScript(redis, 'rfqSyncRateAcquire', 2, ACQUIRE);
  const holdScript = defineScript(redis, 'rfqSyncRateHoldOff', 1, HOLD_OFF);
  const windowKey = keys.key('rate', 'window');
  const holdKey = keys.key('rate', 'hold');
  const windowMs = 1000 + (o.marginMs ?? 20);
  return {
    perSecond: o.perSecond,
    windowKey,
    holdKey,
    windowMs,
    async acquire(opts = {}) {
      const maxWait = opts.maxWaitMs ?? 2_000;
      const started = Date.now();
      for (;;) {
        const wait = Number(await acquireScript([windowKey, holdKey], [o.perSecond, windowMs, randomUUID()]));
        if (wait <= 0) return;
        if (Date.now() - started + wait > maxWait) throw new ThrottledError(wait);
        await sleep(Math.min(wait, 250), opts.signal);
      }
    },
    async holdOff(ms) {
      if (ms > 0) await holdScript([holdKey], [Math.ceil(ms)]);
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

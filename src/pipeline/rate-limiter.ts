/**
 * The rate limiter for calls to the sourcing service, shared by every worker on every host through Redis.
 *
 * Why not only BullMQ's limiter: it counts jobs started in back-to-back fixed windows, so the calls those jobs make
 * can bunch up across a window edge (up to twice the limit in a 1 s span, as the service would measure it). This
 * one is asked right before each call and runs on Redis's own clock (TIME, so host clocks do not matter):
 *   - calls are given send slots 1/perSecond apart (a schedule in Redis): a caller reserves the next slot and sleeps
 *     until it, so no time is lost to polling and calls reach the service evenly spread - a whole window of permits
 *     handed out at once would leave in a heap, arrive spread out by queueing, and meet the next window's heap
 *     inside 1 s;
 *   - hard bound: at most `perSecond` slots in any window of 1 s + a margin (the spread between a slot and the call
 *     reaching the service);
 *   - `Retry-After`: after a 429 nobody calls until the wait is over (`holdOff`); a caller whose slot comes during a
 *     hold-off asks again.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScript } from './redis-scripts.ts';
import type { RedisKeys } from './redis-keys.ts';

/**
 * Lua fragment reserving one send slot. Expects the local `now` (ms, from TIME); arguments are Lua expressions.
 * Sets the locals `wait` (> 0: nothing reserved, ask again in `wait` ms - a hold-off, or the next slot is more
 * than `maxAhead` ms away) and `delay` (slot reserved `delay` ms from now: sleep that long, then call).
 * Shared with the claim script of the idempotency store, which reserves a slot (maxAhead 0: only one free now) in
 * the same step as the claim, so the hot path costs one round trip.
 */
export function ratePermitLua(k: { window: string; hold: string; tat: string }, limit: string, windowMs: string, maxAhead: string, member: string): string {
  return `
local wait = redis.call('PTTL', ${k.hold})
local delay = 0
if wait <= 0 then
  wait = 0
  local window = tonumber(${windowMs})
  local limit = tonumber(${limit})
  local slot = tonumber(redis.call('GET', ${k.tat}) or '0') or 0
  if slot < now then slot = now end
  redis.call('ZREMRANGEBYSCORE', ${k.window}, '-inf', now - window)
  if redis.call('ZCARD', ${k.window}) >= limit then
    local back = redis.call('ZRANGE', ${k.window}, -limit, -limit, 'WITHSCORES')
    if back[2] and slot < tonumber(back[2]) + window then slot = tonumber(back[2]) + window end
  end
  if slot - now > tonumber(${maxAhead}) then
    wait = math.max(1, math.ceil(slot - now - tonumber(${maxAhead})))
  else
    delay = math.ceil(slot - now)
    redis.call('ZADD', ${k.window}, slot, ${member})
    redis.call('PEXPIRE', ${k.window}, window * 3)
    redis.call('SET', ${k.tat}, tostring(slot + window / limit), 'PX', window * 3)
  end
end
`;
}

/*
 * KEYS[1] slots sorted set (member -> slot ms), KEYS[2] hold-off key (PX = Retry-After), KEYS[3] next free slot
 * ARGV[1] limit per window, ARGV[2] window ms, ARGV[3] most ms ahead to reserve, ARGV[4] unique member
 * Returns {wait, delay} (see ratePermitLua).
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
${ratePermitLua({ window: 'KEYS[1]', hold: 'KEYS[2]', tat: 'KEYS[3]' }, 'ARGV[1]', 'ARGV[2]', 'ARGV[3]', 'ARGV[4]')}
return {wait, delay}
`;

/*
 * A caller that slept until its slot confirms before calling: a sleeper woken late would otherwise call close to
 * the slots after its own and crowd a 1 s window. Counts the slots in (now - window, now] - its own included - and
 * moves its own to the actual time.
 * KEYS[1] slots, KEYS[2] hold-off; ARGV[1] limit, ARGV[2] window ms, ARGV[3] member.
 * Returns 0 (call now) or the ms to wait (then reserve again).
 */
const CONFIRM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return hold
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = redis.call('ZCOUNT', KEYS[1], '(' .. tostring(now - window), now)
if n > limit then
  local over = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. tostring(now - window), now, 'WITHSCORES', 'LIMIT', n - limit - 1, 1)
  redis.call('ZREM', KEYS[1], ARGV[3])
  return math.max(1, tonumber(over[2]) + window - now + 1)
end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[3])
return 0
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
  acquire(opts?: { maxWaitMs?: number }): Promise<void>;
  /** The service said Retry-After: nobody calls for `ms`. */
  holdOff(ms: number): Promise<void>;
  readonly perSecond: number;
  /** For scripts that take a permit themselves (ratePermitLua). */
  readonly keys: { window: string; hold: string; tat: string };
  readonly windowMs: number;
}

export interface RateLimiterOptions {
  perSecond: number;
  /**
   * Added to the 1 s window (ms): the spread between a permit and the call arriving (a call may wait in the
   * connection pool behind another one). Default 100: 30 let 6 calls in 1 s reach the service on a loaded machine.
   */
  marginMs?: number;
}

export function createRateLimiter(redis: Redis, keys: RedisKeys, o: RateLimiterOptions): RateLimiter {
  const acquireScript = defineScript(redis, 'rfqSyncRateAcquire3', 3, ACQUIRE);
  const confirmScript = defineScript(redis, 'rfqSyncRateConfirm', 2, CONFIRM);
  const holdScript = defineScript(redis, 'rfqSyncRateHoldOff', 1, HOLD_OFF);
  const k = { window: keys.key('rate', 'window'), hold: keys.key('rate', 'hold'), tat: keys.key('rate', 'tat') };
  const windowMs = 1000 + (o.marginMs ?? 100);
  return {
    perSecond: o.perSecond,
    keys: k,
    windowMs,
    async acquire(opts = {}) {
      const maxWait = opts.maxWaitMs ?? 2_000;
      const started = Date.now();
      for (;;) {
        const left = Math.max(0, maxWait - (Date.now() - started));
        const member = randomUUID();
        const [wait, delay] = ((await acquireScript([k.window, k.hold, k.tat], [o.perSecond, windowMs, left, member])) as number[]).map(Number) as [number, number];
        if (wait > 0) {
          if (Date.now() - started + wait > maxWait) throw new ThrottledError(wait);
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        if (delay <= 0) return;
        await new Promise((r) => setTimeout(r, delay));
        // woken late, or a 429 came in meanwhile: the confirm says whether the call may still go now
        const again = Number(await confirmScript([k.window, k.hold], [o.perSecond, windowMs, member]));
        if (again <= 0) return;
        if (Date.now() - started + again > maxWait) throw new ThrottledError(again);
        await new Promise((r) => setTimeout(r, again));
      }
    },
    async holdOff(ms) {
      if (ms > 0) await holdScript([k.hold], [Math.ceil(ms)]);
    },
  };
}

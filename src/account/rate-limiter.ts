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
 *     hold-off asks again;
 *   - priority: a read that a waiting requisition or comparison depends on (the list-lag probe's reads, a webhook's
 *     targeted check: made inside `readsFirst`) takes the first slot a caller without priority is still waiting
 *     for; those move one slot back each, keeping their places. The schedule's slots stay the same, so the bound
 *     holds as without priority; creates cannot starve it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ThrottledError } from '../core/index.ts';
import { defineScript, loadScript, type ScriptFlag, type RedisKeys } from '../redis/index.ts';

// src/redis/lua/ (the slot reservation itself is includes/ratePermit.lua, shared with the claim script).
const ACQUIRE = loadScript<[waitMs: number, delayMs: number]>('rateAcquire-3.lua');
/** 0: call now; else the ms to wait. */
const CONFIRM = loadScript<number>('rateConfirm-2.lua');
const HOLD_OFF = loadScript<ScriptFlag>('rateHoldOff-1.lua');

export interface RateLimiter {
  /**
   * Wait for a permit to make one call. Waits in-process up to `maxWaitMs` (default 2 s); beyond that throws
   * ThrottledError so the caller can reschedule its job instead of holding a worker slot.
   */
  acquire(opts?: { maxWaitMs?: number; priority?: boolean }): Promise<void>;
  /** The service said Retry-After: nobody calls for `ms`. */
  holdOff(ms: number): Promise<void>;
  readonly perSecond: number;
  /** For scripts that take a permit themselves (lua/includes/ratePermit.lua). */
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

const priorityScope = new AsyncLocalStorage<true>();

/** Runs `fn` with every service call it makes (through rateLimitHooks) taking its permit with priority. */
export function readsFirst<T>(fn: () => Promise<T>): Promise<T> {
  return priorityScope.run(true, fn);
}

/** True inside readsFirst. */
export function inReadsFirst(): boolean {
  return priorityScope.getStore() === true;
}

export function createRateLimiter(redis: Redis, keys: RedisKeys, o: RateLimiterOptions): RateLimiter {
  const acquireScript = defineScript(redis, ACQUIRE);
  const confirmScript = defineScript(redis, CONFIRM);
  const holdScript = defineScript(redis, HOLD_OFF);
  const k = { window: keys.key('rate', 'window'), hold: keys.key('rate', 'hold'), tat: keys.key('rate', 'tat') };
  const windowMs = 1000 + (o.marginMs ?? 100);
  return {
    perSecond: o.perSecond,
    keys: k,
    windowMs,
    async acquire(opts = {}) {
      const maxWait = opts.maxWaitMs ?? 2_000;
      let moved = 0;
      const started = Date.now();
      const elapsed = () => Date.now() - started - moved;
      for (;;) {
        const left = Math.max(0, maxWait - elapsed());
        const member = opts.priority ? `p:${randomUUID()}` : randomUUID();
        const [wait, delay] = await acquireScript([k.window, k.hold, k.tat], [o.perSecond, windowMs, left, member]);
        if (wait > 0) {
          if (elapsed() + wait > maxWait) throw new ThrottledError(wait);
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        if (delay <= 0) return;
        await new Promise((r) => setTimeout(r, delay));
        // woken late, or a 429 came in meanwhile: the confirm says whether the call may still go now; a slot a
        // priority caller took was moved later: sleep on, the place is kept (beyond maxWaitMs too: it is a slot)
        let again = await confirmScript([k.window, k.hold], [o.perSecond, windowMs, member]);
        while (again < 0) {
          moved += -again; // not counted against maxWaitMs: the place was kept, only pushed back
          await new Promise((r) => setTimeout(r, -again));
          again = await confirmScript([k.window, k.hold], [o.perSecond, windowMs, member]);
        }
        if (again === 0) return;
        if (elapsed() + again > maxWait) throw new ThrottledError(again);
        await new Promise((r) => setTimeout(r, again));
      }
    },
    async holdOff(ms) {
      if (ms > 0) await holdScript([k.hold], [Math.ceil(ms)]);
    },
  };
}

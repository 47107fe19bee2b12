/**
 * Registers a Lua script on an ioredis client (defineCommand: EVALSHA with a fallback to EVAL, so a restarted Redis
 * that lost its script cache is handled) and returns a typed caller. Defining twice on one client is harmless.
 */
import type { Redis } from 'ioredis';

export type ScriptCaller = (keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<unknown>;

export function defineScript(redis: Redis, name: string, numberOfKeys: number, lua: string): ScriptCaller {
  const r = redis as unknown as Record<string, ((...a: Array<string | number>) => Promise<unknown>) | undefined>;
  if (typeof r[name] !== 'function') redis.defineCommand(name, { numberOfKeys, lua });
  return (keys, args) => {
    if (keys.length !== numberOfKeys) throw new Error(`${name}: expects ${numberOfKeys} keys, got ${keys.length}`);
    return (r[name] as (...a: Array<string | number>) => Promise<unknown>).call(redis, ...keys, ...args);
  };
}

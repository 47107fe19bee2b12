/**
 * The audit log's faults as `status` shows them, from any host: each worker whose log cannot be written records its
 * fault in Redis (hash `audit:faults`, host -> JSON: folder, error, since) when it begins and removes it when its
 * lines are written again (app/runtime/worker-context.ts wires the writer's onFault here).
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/index.ts';
import type { AuditFault } from './writer-faults.ts';

type Ctx = { redis: Redis; keys: RedisKeys };

const key = (ctx: Ctx): string => ctx.keys.key('audit', 'faults');

/** Record the fault of `host` (undefined: its log is writable again). */
export async function recordAuditFault(ctx: Ctx, host: string, fault: AuditFault | undefined): Promise<void> {
  if (fault) await ctx.redis.hset(key(ctx), host, JSON.stringify(fault));
  else await ctx.redis.hdel(key(ctx), host);
}

/** The faults in force, oldest first. */
export async function auditFaults(ctx: Ctx): Promise<AuditFault[]> {
  const all = await ctx.redis.hgetall(key(ctx));
  return Object.values(all)
    .flatMap((v) => {
      try {
        return [JSON.parse(v) as AuditFault];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.since - b.since);
}

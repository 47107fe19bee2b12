/**
 * Every supplier seen in a quotation of the account (Redis hash `suppliers:seen`, quotation key -> supplier name, the
 * latest name wins), noted by each comparison: with the vendor directory, what `rfq-sync vendors --xref-draft` lists
 * for IT to give their ERP vendors. A few bytes per supplier; never read on the pipeline's path.
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/index.ts';

type Ctx = { redis: Redis; keys: Pick<RedisKeys, 'key'> };

const key = (ctx: Ctx): string => ctx.keys.key('suppliers', 'seen');

export async function noteSuppliersSeen(
  ctx: Ctx,
  suppliers: ReadonlyArray<{ key: string; name: string }>,
): Promise<void> {
  if (suppliers.length === 0) return;
  await ctx.redis.hset(key(ctx), Object.fromEntries(suppliers.map((s) => [s.key, s.name])));
}

/** Key -> name of every supplier seen. */
export async function suppliersSeen(ctx: Ctx): Promise<Record<string, string>> {
  return ctx.redis.hgetall(key(ctx));
}

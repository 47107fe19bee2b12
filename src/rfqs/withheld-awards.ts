/**
 * RFQs whose latest comparison withheld the award file because the lines' ERP ids are not certain (the listed lines
 * no longer match what was posted): kept in Redis (hash `awards:withheld`, RFQ id -> JSON) for `rfq-sync status`,
 * removed when a later version writes its award file or is no longer withheld. A poll that sees a new version of
 * such an RFQ's record asks for the next comparison version (retryWithheld), which writes the award file if the
 * lines match again.
 */
import type { Redis } from 'ioredis';
import { enqueueComparison } from '../queues/index.ts';
import type { Queues, RedisKeys } from '../redis/index.ts';

export interface WithheldAward {
  rfqId: number;
  version: number;
  reason: string;
  /** Unix ms. */
  at: number;
}

type Ctx = { redis: Redis; keys: RedisKeys };

const key = (ctx: Ctx): string => ctx.keys.key('awards', 'withheld');

export async function noteWithheld(
  ctx: Ctx,
  rfqId: number,
  version: number,
  reason: string | undefined,
): Promise<void> {
  if (reason === undefined) await ctx.redis.hdel(key(ctx), String(rfqId));
  else await ctx.redis.hset(key(ctx), String(rfqId), JSON.stringify({ version, reason, at: Date.now() }));
}

/** Latest first. */
export async function withheldAwards(ctx: Ctx): Promise<WithheldAward[]> {
  const all = await ctx.redis.hgetall(key(ctx));
  return Object.entries(all)
    .map(([id, v]) => ({ rfqId: Number(id), ...(JSON.parse(v) as Omit<WithheldAward, 'rfqId'>) }))
    .sort((a, b) => b.at - a.at);
}

/** After a new listed version of the RFQ: the next comparison version, if its award file was withheld. */
export async function retryWithheld(
  ctx: Ctx & { queues: Pick<Queues, 'comparison'> },
  rfqId: number,
  version: number,
): Promise<void> {
  if (await ctx.redis.hexists(key(ctx), String(rfqId))) await enqueueComparison(ctx, { rfqId, version: version + 1 });
}

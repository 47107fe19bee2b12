/**
 * The awards whose ERP files wait for the vendor cross-reference, kept in Redis (hash `erp:held`, RFQ id -> JSON):
 * the award itself (written later without the comparison model), the suppliers missing, and the version's file
 * names. Written and emptied by erp-hold.ts; read by `status` and the overview.
 */
import type { ErpAward, MissingVendor } from '../erp/index.ts';
import type { AwardingContext } from './context.ts';

export interface HeldErpFiles {
  rfqId: number;
  version: number;
  missing: MissingVendor[];
  /** Unix ms it was first held. */
  at: number;
  award: ErpAward;
  /** The version's workbook and award file names (its done files list them with the ERP files). */
  workbook: string;
  awardFile: string;
}

type Ctx = Pick<AwardingContext, 'redis' | 'keys'>;

export const heldKey = (ctx: Pick<Ctx, 'keys'>): string => ctx.keys.key('erp', 'held');

/** Every award held, oldest first. */
export async function heldErpFiles(ctx: Ctx): Promise<HeldErpFiles[]> {
  const all = await ctx.redis.hgetall(heldKey(ctx));
  return Object.values(all)
    .map((v) => JSON.parse(v) as HeldErpFiles)
    .sort((a, b) => a.at - b.at);
}

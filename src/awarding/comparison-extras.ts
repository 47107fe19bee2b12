/**
 * What a comparison adds to the listed RFQ from Redis, for the comparison job and `rfq-sync compare` alike: each
 * line's ERP external_id (echoed, else the one posted at its position, guarded: src/comparison/erp-line-ids.ts) and
 * the vendors following the RFQ's category (the stored vendor directory; never read from the service here).
 */
import { resolveErpIds, type CategoryVendors, type ComparisonInput, type PostedLine } from '../comparison/index.ts';
import { requisitionRecords } from '../requisitions/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';
import { followersOf, readable, vendorStore } from '../vendors/index.ts';
import type { AwardingContext } from './context.ts';

type Ctx = Pick<AwardingContext, 'redis' | 'keys' | 'logger'>;

export type ComparisonExtras = Pick<ComparisonInput, 'rfq' | 'erpIdProblem' | 'erpIdsBy' | 'vendors'>;

export async function comparisonExtras(ctx: Ctx, listed: ListedRfq): Promise<ComparisonExtras> {
  const [posted, vendors] = await Promise.all([postedLines(ctx, listed._id), categoryVendors(ctx, listed)]);
  const ids = resolveErpIds(listed, posted);
  return {
    rfq: ids.rfq,
    ...(ids.problem !== undefined ? { erpIdProblem: ids.problem } : {}),
    erpIdsBy: { echoed: ids.echoed, byPosition: ids.byPosition },
    vendors,
  };
}

/** What was posted at each position of the RFQ (the requisition's record), or undefined when none is recorded. */
export async function postedLines(ctx: Pick<Ctx, 'redis' | 'keys'>, rfqId: number): Promise<PostedLine[] | undefined> {
  const requisitionId = await ctx.redis.hget(ctx.keys.rfq(rfqId), 'requisitionId');
  if (!requisitionId) return undefined;
  const rec = await requisitionRecords(ctx.redis, ctx.keys).get(requisitionId);
  if (!rec || rec.state !== 'created') return undefined;
  const out: PostedLine[] = [];
  for (const [externalId, position] of Object.entries(rec.positions)) {
    const fp = rec.lines[externalId];
    out[position] = { externalId, product: fp?.[0] ?? '', ...(fp ? { qty: fp[3] } : {}) };
  }
  return out;
}

async function categoryVendors(ctx: Ctx, rfq: ListedRfq): Promise<CategoryVendors> {
  const category = rfq.rfq_category;
  const dir = await vendorStore(ctx).stored();
  const about = category !== undefined ? { category } : {};
  if (!readable(dir))
    return {
      ...about,
      unavailable:
        dir?.outcome === 'absent'
          ? 'the sourcing service has no vendor directory'
          : 'the vendor directory has not been read yet (the poll reads it)',
    };
  const following = category === undefined ? [] : followersOf(dir.vendors, category);
  return {
    ...about,
    following: following.map((v) => ({
      id: v.id,
      name: v.name,
      ...(v.contact ? { contact: v.contact } : {}),
      ...(v.email ? { email: v.email } : {}),
      ...(v.phone ? { phone: v.phone } : {}),
    })),
    asOf: dir.readAt,
  };
}

/**
 * `rfq-sync compare RFQ_ID [--out FILE]`: a comparison workbook on demand, from what the service says now. Works for
 * any RFQ of the account (tracked or not); records nothing and writes no award CSV (that one is for the ERP and
 * comes only from the tracked versions).
 */
import { join } from 'node:path';
import { buildComparison, comparisonFileNames, workbookOutput, type ComparisonInput } from '../comparison/index.ts';
import { rfqNotFound } from '../core/index.ts';
import { comparisonExtras } from './comparison-extras.ts';
import { comparisonInputFromRecord } from './comparison-input.ts';
import type { AwardingContext } from './context.ts';
import { findListedRfq } from './find-rfq.ts';
import { lastAwards } from './price-history.ts';
import { pullQuotations } from './snapshot.ts';
import { trackingStore } from '../rfqs/index.ts';

export async function writeComparisonNow(
  ctx: Pick<AwardingContext, 'redis' | 'keys' | 'client' | 'config' | 'dialects' | 'logger'>,
  rfqId: number,
  opts: { out?: string; now?: Date } = {},
): Promise<{ workbook: string; state: string; quotations: number; invalid: number; winnerKey?: string }> {
  const found = await findListedRfq(ctx.client, rfqId, ctx.dialects ? await ctx.dialects.get() : undefined);
  if (!found) throw rfqNotFound(rfqId);
  const pull = await pullQuotations(ctx.client, rfqId, found.state === 'completed');
  const rec = await trackingStore(ctx).get(rfqId);
  const input: ComparisonInput = {
    ...(await comparisonExtras(ctx, found.rfq)),
    state: found.state,
    quotations: pull.quotations,
    invalidQuotations: pull.invalid.map((i) => ({
      ...(i.quotation_key !== undefined ? { quotation_key: i.quotation_key } : {}),
      reason: i.reason,
    })),
    ...(pull.winnerKey !== undefined ? { winnerKey: pull.winnerKey } : {}),
    generatedAt: opts.now ?? new Date(),
    ...comparisonInputFromRecord(rec, ctx.config),
  };
  const workbook = opts.out ?? join(ctx.config.folders.comparisons, comparisonFileNames(found.rfq).workbook);
  const model = buildComparison(input);
  input.lastAwards = await lastAwards(ctx, model, rfqId, input.generatedAt.getTime());
  await workbookOutput.write(model, workbook);
  return {
    workbook,
    state: found.state,
    quotations: pull.quotations.length,
    invalid: pull.invalid.length,
    ...(pull.winnerKey !== undefined ? { winnerKey: pull.winnerKey } : {}),
  };
}

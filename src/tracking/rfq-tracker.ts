/**
 * The entry point create-rfq calls right after recording a created RFQ: from then on every poll follows it.
 * Idempotent: a retried create-rfq job (or a reconciled RFQ adopted again) keeps the existing record and history.
 */
import type { Requisition } from '../core/index.ts';
import { type TrackingContext } from './context.ts';
import { type ErpDays, type TrackedRfq, trackingStore } from '../rfqs/index.ts';

export async function trackRfq(
  ctx: Pick<TrackingContext, 'redis' | 'keys'> & { config?: { REQUISITION_CURRENCY?: string | undefined } },
  o: {
    rfqId: number;
    requisition: Pick<Requisition, 'key' | 'sourceFile' | 'profile' | 'title' | 'currency'> &
      Partial<Pick<Requisition, 'erp_days' | 'due_date' | 'required_date'>> & { lines?: Requisition['lines'] };
  },
): Promise<TrackedRfq> {
  const r = o.requisition;
  // The currency is fixed when tracking starts: a later change of REQUISITION_CURRENCY does not relabel old RFQs.
  const currency = r.currency ?? ctx.config?.REQUISITION_CURRENCY;
  let erpPrices: Record<string, [string, string]> | undefined;
  let productCodes: Record<string, string> | undefined;
  for (const l of r.lines ?? []) {
    if (l.product_code !== undefined) (productCodes ??= {})[l.external_id] = l.product_code;
    if (l.unit_price === undefined) continue;
    (erpPrices ??= {})[l.external_id] = [l.unit_price, l.price_unit ?? '1'];
  }
  // A date the ERP gave as a day only, with the instant sent for it: shown as that day while the RFQ keeps it.
  let erpDays: ErpDays | undefined;
  for (const field of ['due_date', 'required_date'] as const) {
    const day = r.erp_days?.[field];
    const at = r[field];
    if (day !== undefined && at !== undefined) (erpDays ??= {})[field] = { day, at };
  }
  return trackingStore(ctx).track(o.rfqId, {
    key: r.key,
    sourceFile: r.sourceFile,
    profile: r.profile,
    title: r.title,
    ...(currency ? { currency } : {}),
    ...(erpPrices ? { erpPrices } : {}),
    ...(productCodes ? { productCodes } : {}),
    ...(erpDays ? { erpDays } : {}),
  });
}

/** The fields the procurement events share: which RFQ, of which requisition, and what a route filters them by. */
import { z } from 'zod';
import type { Detail, EventScope } from '../event-kind.ts';

export const rfqFields = {
  rfqId: z.number().int(),
  rfqNo: z.string().optional(),
  title: z.string().optional(),
  /** `profile/key` of the requisition, and the file it came from. */
  requisition: z.string().optional(),
  sourceFile: z.string().optional(),
  profile: z.string().optional(),
  location: z.string().optional(),
  category: z.string().optional(),
};
const _rfqObject = z.object(rfqFields);
type RfqFields = z.infer<typeof _rfqObject>;

export function rfqScope(d: RfqFields): EventScope {
  return {
    ...(d.profile !== undefined ? { profile: d.profile } : {}),
    ...(d.location !== undefined ? { location: d.location } : {}),
    ...(d.category !== undefined ? { category: d.category } : {}),
  };
}

/** `RFQ 2027-0042 "Pumps"` (the service's RFQ number when known, else its id). */
export function rfqName(d: RfqFields): string {
  return `RFQ ${d.rfqNo ?? d.rfqId}${d.title ? ` "${d.title}"` : ''}`;
}

export function rfqDetails(d: RfqFields): Detail[] {
  const no = d.rfqNo !== undefined && d.rfqNo !== String(d.rfqId) ? `${d.rfqNo} (id ${d.rfqId})` : String(d.rfqId);
  const out: Detail[] = [['RFQ', no]];
  if (d.requisition) out.push(['Requisition', `${d.requisition}${d.sourceFile ? ` from ${d.sourceFile}` : ''}`]);
  if (d.location) out.push(['Location', d.location]);
  if (d.category) out.push(['Category', d.category]);
  return out;
}

/** `1234.50 EUR`: the exact decimal text, with the currency when known. */
export function money(amount: string, currency: string | undefined): string {
  return currency ? `${amount} ${currency}` : amount;
}

/** Procurement: an RFQ closed with fewer quotations than NOTIFY_MIN_QUOTATIONS (once per RFQ). */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';
import { rfqDetails, rfqFields, rfqName, rfqScope } from './rfq-fields.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'supplier-response-low',
  audience: 'procurement',
  data: z.object({ ...rfqFields, quotations: z.number().int(), minimum: z.number().int(), state: z.string() }),
  id: (d) => String(d.rfqId),
  scope: rfqScope,
  count: (n) => plural(n, 'RFQ with few quotations', 'RFQs with few quotations'),
  title: (d) =>
    `${rfqName(d)} ${d.state} with ${plural(d.quotations, 'quotation', 'quotations')} (fewer than ${d.minimum})`,
  details: (d) => [...rfqDetails(d), ['Quotations', `${d.quotations} (expected at least ${d.minimum})`]],
});

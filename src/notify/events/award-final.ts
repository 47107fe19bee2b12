/** Procurement: the award of an RFQ is final and its award file was written for the ERP; the summary in the body. */
import { z } from 'zod';
import { defineEventKind, plural, type Detail } from '../event-kind.ts';
import { money, rfqDetails, rfqFields, rfqName, rfqScope } from './rfq-fields.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'award-final',
  audience: 'procurement',
  data: z.object({
    ...rfqFields,
    version: z.number().int(),
    /** Why it is final: the completed RFQ's winning quotation, or every quotation decided. */
    because: z.string(),
    awardFile: z.string(),
    currency: z.string().optional(),
    awardedTotal: z.string(),
    awardedLines: z.number().int(),
    lines: z.number().int(),
    estimatedTotal: z.string().optional(),
    savings: z.string().optional(),
    /** Per supplier awarded: lines and total, largest first. */
    suppliers: z.array(z.object({ name: z.string(), lines: z.number().int(), total: z.string() })),
    supersedes: z.string().optional(),
    /** The ERP's purchase-order files written with it (ERP_OUTPUTS), or the winners that hold them. */
    erpFiles: z.array(z.string()).optional(),
    erpHeld: z.array(z.string()).optional(),
  }),
  id: (d) => `${d.rfqId}~v${d.version}`,
  scope: rfqScope,
  count: (n) => plural(n, 'award final', 'awards final'),
  title: (d) => {
    const to = d.suppliers.length === 1 ? d.suppliers[0]!.name : plural(d.suppliers.length, 'supplier', 'suppliers');
    return `${rfqName(d)}: award final, ${money(d.awardedTotal, d.currency)} to ${to}`;
  },
  details: (d) => {
    const out: Detail[] = [
      ...rfqDetails(d),
      ['Final because', d.because],
      ['Awarded', `${d.awardedLines} of ${plural(d.lines, 'line', 'lines')}, ${money(d.awardedTotal, d.currency)}`],
    ];
    for (const s of d.suppliers)
      out.push(['Supplier', `${s.name}: ${plural(s.lines, 'line', 'lines')}, ${money(s.total, d.currency)}`]);
    if (d.estimatedTotal !== undefined) out.push(['Estimated', money(d.estimatedTotal, d.currency)]);
    if (d.savings !== undefined) out.push(['Saving vs estimate', money(d.savings, d.currency)]);
    out.push(['Award file', { path: d.awardFile }]);
    if (d.supersedes) out.push(['Supersedes', d.supersedes]);
    for (const f of d.erpFiles ?? []) out.push(['ERP file', { path: f }]);
    if (d.erpHeld?.length) out.push(['ERP files', `held: no ERP vendor for ${d.erpHeld.join(', ')} yet`]);
    return out;
  },
});

/** Procurement: a comparison workbook was written (a new version of an RFQ's comparison). */
import { z } from 'zod';
import { defineEventKind, detailIf, plural } from '../event-kind.ts';
import { money, rfqDetails, rfqFields, rfqName, rfqScope } from './rfq-fields.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'comparison-ready',
  audience: 'procurement',
  data: z.object({
    ...rfqFields,
    version: z.number().int(),
    state: z.string(),
    quotations: z.number().int(),
    /** The workbook's path. */
    workbook: z.string(),
    recommended: z.string().optional(),
    bestTotal: z.string().optional(),
    currency: z.string().optional(),
    final: z.boolean(),
  }),
  id: (d) => `${d.rfqId}~v${d.version}`,
  scope: rfqScope,
  count: (n) => plural(n, 'comparison ready', 'comparisons ready'),
  title: (d) =>
    `${rfqName(d)}: comparison v${d.version} ready, ${plural(d.quotations, 'quotation', 'quotations')} (${d.state})`,
  details: (d) => [
    ...rfqDetails(d),
    ['Quotations', String(d.quotations)],
    ...detailIf('Recommended', d.recommended),
    ...detailIf('Best total', d.bestTotal !== undefined ? money(d.bestTotal, d.currency) : undefined),
    ['Award', d.final ? 'final (the award file is written)' : 'draft (not every quotation is decided yet)'],
    ['Workbook', { path: d.workbook }],
  ],
  attachment: (d) => ({ path: d.workbook }),
});

/**
 * Procurement and IT: a final award's ERP files are held because the vendor cross-reference (VENDOR_XREF_FILE) does
 * not give a winner's ERP vendor; they are written on the first poll after it does. Told once per RFQ (again only
 * when a later award version lacks other suppliers).
 */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';
import { rfqDetails, rfqFields, rfqName, rfqScope } from './rfq-fields.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'erp-vendor-missing',
  audience: ['procurement', 'it'],
  data: z.object({
    ...rfqFields,
    version: z.number().int(),
    /** Each supplier without an ERP vendor: `name (key k)`, and what the cross-reference lacks. */
    suppliers: z.array(z.object({ supplier: z.string(), missing: z.string() })),
    xrefFile: z.string(),
    profiles: z.array(z.string()),
  }),
  id: (d) => `${d.rfqId}~v${d.version}`,
  scope: rfqScope,
  count: (n) => plural(n, "award's ERP files held", "awards' ERP files held"),
  title: (d) => `${rfqName(d)}: ERP files held, no ERP vendor for ${d.suppliers.map((s) => s.supplier).join(', ')}`,
  details: (d) => [
    ...rfqDetails(d),
    ...d.suppliers.map((s): [string, string] => ['Supplier', `${s.supplier}: no ${s.missing}`]),
    ['Add to', { path: d.xrefFile }],
    ['Profiles', d.profiles.join(', ')],
    ['Then', 'the files are written on the next poll'],
  ],
});

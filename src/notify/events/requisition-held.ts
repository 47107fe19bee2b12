/** IT: a file was read, but requisitions with invalid lines were held back (nothing of them was sent). */
import { z } from 'zod';
import { defineEventKind, detailIf, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'requisition-held',
  audience: 'it',
  data: z.object({
    file: z.string(),
    take: z.string(),
    profile: z.string(),
    held: z.number().int(),
    rejectedRows: z.number().int(),
    queued: z.number().int(),
    firstProblem: z.string().optional(),
    report: z.string(),
  }),
  id: (d) => d.take,
  scope: (d) => ({ profile: d.profile }),
  count: (n) => plural(n, 'file with held requisitions', 'files with held requisitions'),
  title: (d) =>
    `${d.file}: ${plural(d.held, 'requisition', 'requisitions')} held back, ${plural(d.rejectedRows, 'row', 'rows')} rejected`,
  details: (d) => [
    ['Profile', d.profile],
    ['Queued for creation', String(d.queued)],
    ...detailIf('First problem', d.firstProblem),
    ['Report', { path: d.report }],
  ],
});

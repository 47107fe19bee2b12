/** IT: after a lost answer the service's lists were ambiguous; the requisition waits for `rfq-sync resolve`. */
import { z } from 'zod';
import { defineEventKind, shortHash } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'requisition-decision',
  audience: 'it',
  data: z.object({
    requisition: z.string(),
    sourceFile: z.string(),
    profile: z.string(),
    reason: z.string(),
    candidates: z.array(z.number().int()),
  }),
  // the reason, not the candidates: a re-run of a parked requisition knows the reason only
  id: (d) => `${d.requisition}~${shortHash(d.reason)}`,
  scope: (d) => ({ profile: d.profile }),
  count: (n) => `${n.toLocaleString('en')} ${n === 1 ? 'requisition needs' : 'requisitions need'} a decision`,
  title: (d) => `requisition ${d.requisition} needs a decision: ${d.reason}`,
  details: (d) => [
    ['From file', d.sourceFile],
    ['Candidate RFQs', d.candidates.length ? d.candidates.join(', ') : 'none'],
    ['Decide with', `rfq-sync resolve ${d.requisition} --rfq <id> (this RFQ is it) or --post (post it once more)`],
  ],
});

/** IT: Redis lost its state; creation is paused until `rfq-sync recover`. */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'redis-state-lost',
  audience: 'it',
  data: z.object({ detectedAt: z.number(), reason: z.string() }),
  id: (d) => String(d.detectedAt),
  scope: () => ({}),
  count: (n) => plural(n, 'Redis state loss', 'Redis state losses'),
  title: (d) => `Redis lost its state (${d.reason}): creation of RFQs is paused`,
  details: (d) => [
    ['Seen', new Date(d.detectedAt).toISOString()],
    ['To resume', 'rfq-sync recover --since <when the loss may have begun>'],
  ],
});

/** The message `rfq-sync notify test ROUTE` sends (never picked by a route). */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'notify-test',
  audience: 'test',
  data: z.object({ route: z.string(), channel: z.string(), host: z.string() }),
  id: (d) => `${d.route}~${Date.now()}`,
  scope: () => ({}),
  count: (n) => plural(n, 'test message', 'test messages'),
  title: (d) => `test message of route ${d.route}: notifications reach you`,
  details: (d) => [
    ['Channel', d.channel],
    ['Sent from', d.host],
  ],
});

/** IT: no poll has finished for longer than NOTIFY_POLL_STUCK_MS (the poll queue is stuck or not worked). */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'poll-stuck',
  audience: 'it',
  data: z.object({ lastPollAt: z.number().optional(), stuckMs: z.number() }),
  id: (d) => String(d.lastPollAt ?? 'never'),
  scope: () => ({}),
  count: (n) => plural(n, 'stuck poll', 'stuck polls'),
  title: (d) =>
    `no poll has finished for ${Math.round(d.stuckMs / 60_000)} min: RFQ states, quotations and comparisons wait`,
  details: (d) => [
    ['Last poll finished', d.lastPollAt !== undefined ? new Date(d.lastPollAt).toISOString() : 'never'],
    ['Look at', 'rfq-sync status (the poll queue, WORKER_QUEUES of the workers, POLL_CRON)'],
  ],
});

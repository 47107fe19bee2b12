/** IT: every poll has failed for longer than NOTIFY_UNREACHABLE_MS. */
import { z } from 'zod';
import { defineEventKind, detailIf, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'service-unreachable',
  audience: 'it',
  data: z.object({
    /** When the first failed poll after the last good one started. */
    since: z.number(),
    lastOkAt: z.number().optional(),
    failedPolls: z.number().int(),
    lastError: z.string(),
  }),
  id: (d) => String(d.since),
  scope: () => ({}),
  count: (n) => plural(n, 'service outage', 'service outages'),
  title: (d) =>
    `the sourcing service has not answered a poll for ${Math.round((Date.now() - d.since) / 60_000)} min: ${d.lastError}`,
  details: (d) => [
    ['Failing since', new Date(d.since).toISOString()],
    ...detailIf('Last good poll', d.lastOkAt !== undefined ? new Date(d.lastOkAt).toISOString() : 'none'),
    ['Failed polls', String(d.failedPolls)],
  ],
});

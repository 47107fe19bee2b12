/** IT: a message could not be sent through a channel after every attempt; it is kept in `rfq-sync failed list`. */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'channel-failing',
  audience: 'it',
  data: z.object({
    channel: z.string(),
    route: z.string(),
    /** The failed job, as `failed list` names it. */
    job: z.string(),
    attempts: z.number().int(),
    events: z.number().int(),
    error: z.string(),
  }),
  id: (d) => d.job,
  scope: () => ({}),
  count: (n) => plural(n, 'message not delivered', 'messages not delivered'),
  title: (d) =>
    `channel ${d.channel} failed ${plural(d.attempts, 'time', 'times')}: a message of route ${d.route} was not delivered (${d.error})`,
  details: (d) => [
    ['Events in it', String(d.events)],
    ['Kept as', `${d.job} (rfq-sync failed list; rfq-sync failed retry ${d.job} once the channel works)`],
  ],
});

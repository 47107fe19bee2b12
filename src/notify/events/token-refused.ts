/**
 * IT: the sourcing service refused the token; creation and polling are paused until it is replaced or the service
 * accepts it again (checked on a back-off, src/account/auth-recheck.ts).
 */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'token-refused',
  audience: 'it',
  data: z.object({ reason: z.string(), since: z.number() }),
  id: (d) => String(d.since),
  scope: () => ({}),
  count: (n) => plural(n, 'token refusal', 'token refusals'),
  title: (d) => `the sourcing service refused the token: creation and polling are paused (${d.reason})`,
  details: (d) => [
    ['Since', new Date(d.since).toISOString()],
    [
      'To resume',
      'nothing, if the service accepts the same token again (it is checked again, at most every 15 minutes); else ' +
        'replace the token (SOURCING_TOKEN_FILE is re-read every few seconds, or restart with a new one); ' +
        '`rfq-sync resume` checks now',
    ],
  ],
});

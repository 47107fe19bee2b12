/** IT: the sourcing service refused the token; creation and polling are paused until it is replaced. */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

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
    ['To resume', 'replace the token (SOURCING_TOKEN_FILE is re-read every few seconds, or restart with a new one)'],
  ],
});

/** IT: an export waits in the inbox for a broken mapping profile, the only one that could take it. */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'file-held',
  audience: 'it',
  data: z.object({
    file: z.string(),
    /** Its name in processing/ when it was read: unique per drop (and per time it is held again). */
    take: z.string(),
    /** The broken profiles, each `name: reason`. */
    profiles: z.array(z.string()),
    inbox: z.string(),
    report: z.string(),
  }),
  id: (d) => d.take,
  scope: () => ({}),
  count: (n) => plural(n, 'file held for a broken profile', 'files held for a broken profile'),
  title: (d) => `${d.file} held in the inbox: its mapping profile is broken`,
  details: (d) => [
    ...d.profiles.map((p): [string, string] => ['Broken profile', p]),
    ['Waiting in', { path: d.inbox }],
    ['Report', { path: d.report }],
  ],
});

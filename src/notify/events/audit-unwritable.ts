/** IT: a worker's audit log cannot be written (its folder is missing and cannot be made, read-only, refused, or full). */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'audit-unwritable',
  audience: 'it',
  data: z.object({ host: z.string(), dir: z.string(), code: z.string(), error: z.string(), since: z.number() }),
  id: (d) => `${d.host}~${d.since}`,
  scope: () => ({}),
  count: (n) => plural(n, 'audit log that cannot be written', 'audit logs that cannot be written'),
  title: (d) => `the audit log of ${d.host} cannot be written: jobs wait until it can (${d.error})`,
  details: (d) => [
    ['Folder', d.dir],
    ['Error', d.error],
    ['Since', new Date(d.since).toISOString()],
    ['Look at', 'the folder: it must exist and be writable by the worker, on a disk with space; rfq-sync status'],
  ],
});

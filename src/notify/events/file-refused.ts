/** IT: an export could not be read at all; it went to failed/ with a report saying why. */
import { z } from 'zod';
import { defineEventKind, plural } from '../event-kind.ts';

// Deliberately the same shape as every event kind here: one kind per file, each a defineEventKind (event-kind.ts).
export default defineEventKind({
  name: 'file-refused',
  audience: 'it',
  data: z.object({
    file: z.string(),
    /** Its name in processing/ and failed/: unique per drop. */
    take: z.string(),
    reason: z.string(),
    failed: z.string(),
    report: z.string(),
  }),
  id: (d) => d.take,
  scope: () => ({}),
  count: (n) => plural(n, 'file refused', 'files refused'),
  // the reason often opens with the file's name already
  title: (d) =>
    `${d.file} refused: ${d.reason.startsWith(`${d.file}: `) ? d.reason.slice(d.file.length + 2) : d.reason}`,
  details: (d) => [
    ['Moved to', { path: d.failed }],
    ['Report', { path: d.report }],
  ],
});

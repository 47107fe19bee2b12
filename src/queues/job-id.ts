/**
 * Deterministic job ids: every queue module (src/queues/*.ts) builds its ids with this, and nothing else builds one
 * (test/architecture/queue-contracts.test.ts). The ids stay as they were: jobs outlive deploys in Redis.
 */
import { createHash } from 'node:crypto';
import { UnexpectedError } from '../core/index.ts';

const SAFE_PART = /^[A-Za-z0-9_.=+@-]{1,64}$/;

/**
 * Deterministic, BullMQ-safe job id from parts: parts joined by `~`; a part that is long or holds anything but
 * `A-Z a-z 0-9 _ . = + @ -` becomes a readable stub plus `!` and 20 hex of its sha256 (`!` and `~` never appear in
 * a kept part, so different inputs cannot collide). Never contains `:`; never all digits (`#` is prepended then).
 */
export function jobId(...parts: Array<string | number>): string {
  if (parts.length === 0) throw new UnexpectedError('jobId needs at least one part');
  const id = parts
    .map((p) => {
      const s = String(p);
      if (SAFE_PART.test(s)) return s;
      const stub = s.replace(/[^A-Za-z0-9_.=+@-]+/g, '_').slice(0, 32);
      return `${stub}!${createHash('sha256').update(s).digest('hex').slice(0, 20)}`;
    })
    .join('~');
  return /^\d+$/.test(id) ? `#${id}` : id;
}

/** A short hash of a JSON value: content hashes, fingerprints, the ids of supplementary requisitions. */
import { createHash } from 'node:crypto';

export function hashOf(value: unknown, length = 16): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, length);
}

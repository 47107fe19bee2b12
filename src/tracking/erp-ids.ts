/**
 * The ERP's id of each line of one of our RFQs where the lists do not echo external_id
 * (docs/architecture.md#where-the-interface-is-silent): the one posted at that position, as the requisition's record
 * keeps it (positions from the body that was posted, src/creation/adoption.ts), checked against the line before
 * anything is written for the ERP: the product (folded as services store it) and the quantity must agree with what
 * was posted there. A line that does not agree keeps no id (the award file still names its line_id), never another
 * line's.
 */
import type { Redis } from 'ioredis';
import { normText } from '../creation/fingerprint.ts';
import { createIdempotencyStore } from '../creation/idempotency-store.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';
import type { ListedRfq } from '../sourcing/types.ts';
import type { TrackedRfq } from './transitions.ts';

export async function withErpIds(
  ctx: { redis: Redis; keys: RedisKeys },
  rec: Pick<TrackedRfq, 'requisition'>,
  rfq: ListedRfq,
): Promise<ListedRfq> {
  const r = rec.requisition;
  if (!r?.profile || rfq.lines.every((l) => l.external_id !== undefined && l.external_id !== '')) return rfq;
  const record = await createIdempotencyStore(ctx.redis, ctx.keys).get(`${r.profile}/${r.key}`);
  if (!record) return rfq;
  const atPosition = new Map(Object.entries(record.positions).map(([ext, pos]) => [pos, ext]));
  return {
    ...rfq,
    lines: rfq.lines.map((l) => {
      if (l.external_id !== undefined && l.external_id !== '') return l;
      const ext = atPosition.get(l.position);
      const was = ext !== undefined ? record.lines[ext] : undefined;
      const agrees = was !== undefined && normText(was[0]) === normText(l.product_name) && was[3] === l.qty;
      return agrees ? { ...l, external_id: ext } : l;
    }),
  };
}

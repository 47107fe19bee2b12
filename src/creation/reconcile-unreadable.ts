/**
 * Listed records that cannot be read, in the reconcile after lost answers (reconcile-walker.ts). Such a record
 * decides nothing either way: one whose identity is unreadable keeps the walk from completing (reconcile-walk.ts),
 * and one made since a requisition's first POST with an unreadable field the match compares (fingerprint.ts), whose
 * readable title and line count do not rule it out, could be that requisition's.
 * The decision is held for UNREADABLE_WALKS walks in a row (`recon:unreadable`; the service may have been
 * mid-write), then the requisitions held are parked as ambiguous with the reason: a record that will not change
 * never keeps a lost answer waiting for good, and is never taken for absence.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';
import { normText } from './fingerprint.ts';
import type { PostedBody } from '../requisitions/index.ts';

/** Walks in a row held up by records that cannot be read before the requisitions they hold are parked. */
export const UNREADABLE_WALKS = 3;

/** The listed fields the match compares (fingerprint.ts matchListed). */
const COMPARED =
  /^(title|due_date|required_date|description|rfq_type|rfq_category|rfq_location|lines\.\d+\.(product_name|specification|uom|qty|estimated_price))$/;

/** Whether a field the match compares could not be read in this record. */
export function comparesUnreadable(r: ListedRfq): boolean {
  return r.unreadable?.some((u) => COMPARED.test(u.field)) ?? false;
}

/** Whether what can be read of `r` (its title, its number of lines) leaves it possibly one of these bodies. */
export function notRuledOut(r: ListedRfq, posted: readonly PostedBody[]): boolean {
  return posted.some(
    (b) =>
      (r.title === undefined || normText(r.title) === normText(b.title)) &&
      (r.lines.length === 0 || r.lines.length === b.lines.length),
  );
}

/**
 * Of the RFQs whose fingerprint cannot be read, those that could be the RFQ of a requisition first posted at
 * `firstPostAt`: made no earlier than that less the clock skew, or made when we cannot read either.
 */
export function couldBeOurs(
  unknown: readonly ListedRfq[],
  firstPostAt: number | undefined,
  skewMs: number,
): ListedRfq[] {
  return unknown.filter(
    (r) => r.rfq_date === undefined || firstPostAt === undefined || r.rfq_date >= firstPostAt - skewMs,
  );
}

/** The RFQs that held requisitions in a complete walk, and why, in a few words. */
export function heldBecause(held: ReadonlyArray<{ rfqs: readonly ListedRfq[] }>): { rfqIds: number[]; why: string } {
  const rfqIds = [...new Set(held.flatMap((h) => h.rfqs.map((r) => r._id)))];
  const fields = [...new Set(held.flatMap((h) => h.rfqs.flatMap((r) => (r.unreadable ?? []).map((u) => u.field))))];
  return {
    rfqIds,
    why: `RFQ(s) ${rfqIds.slice(0, 5).join(', ')} made since the first POST cannot be read (${fields.slice(0, 3).join(', ')}): whether one of them is this requisition's cannot be told`,
  };
}

export interface UnreadableDeps {
  redis: Redis;
  logger: Logger;
  /** recon:unreadable, the walks in a row held up. */
  counterKey: string;
  /** recon:result, where a walk's result for each pending requisition is written. */
  resultKey: string;
}

/**
 * Requisitions (`ids`) a walk begun at `started` could not decide because of records that cannot be read: they wait
 * for another walk, unless UNREADABLE_WALKS walks in a row were held up so; then each gets an ambiguous result with
 * the reason (the coordinator parks it).
 */
export async function holdForUnreadable(
  d: UnreadableDeps,
  started: number,
  ids: readonly string[],
  rfqIds: number[],
  why: string,
): Promise<void> {
  if (ids.length === 0) return;
  const walks = await d.redis.incr(d.counterKey);
  if (walks < UNREADABLE_WALKS) return;
  d.logger.warn(
    { event: 'reconcile.unreadable', walks, requisitions: ids, rfqIds, why },
    `${ids.length} lost answer(s) cannot be settled after ${walks} walks of the RFQ lists (${why}): parked for a person (rfq-sync resolve)`,
  );
  const result = {
    walkStartedAt: started,
    outcome: 'ambiguous',
    reason: `records of the RFQ lists cannot be read (${why})`,
    rfqIds,
  };
  for (const id of ids) await d.redis.hset(d.resultKey, id, JSON.stringify(result));
}

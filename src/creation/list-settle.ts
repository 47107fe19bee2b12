/**
 * How long after a lost POST its RFQ can be in the lists, and how long after its deadline it must be
 * (docs/architecture.md#proof, assumption A1). Many services serve lists from a search index or a read replica that
 * shows a new RFQ only some time after it was committed; the dialect measures that lag on our own creates
 * (src/sourcing/list-lag.ts). A walk may conclude "absent" (or match by the body posted) only from lists read at
 * least this long after the lease of the lost POST ended: twice the measured lag, never below SOURCING_LIST_SETTLE_MS;
 * until the lag is measured, SOURCING_LIST_SETTLE_UNMEASURED_MS (default UNMEASURED_SETTLE_MS). Finding the RFQ
 * needs no such wait: a walk may look for it once twice the lag has passed since the lost answer (early-look.ts; with
 * a shorter unmeasured settle time than UNMEASURED_SETTLE_MS there is no early look before the lag is measured, the
 * settled walk comes first).
 */
import type { Dialect } from '../sourcing/index.ts';

/** What a walk waits for while the account's list lag is not measured yet (no create of ours answered yet). */
export const UNMEASURED_SETTLE_MS = 30_000;

/** Settle time of the account's lists, ms. */
export function listSettleMs(
  d: Pick<Dialect, 'listLagMs'>,
  floorMs: number,
  unmeasuredMs = UNMEASURED_SETTLE_MS,
): number {
  return Math.max(floorMs, d.listLagMs !== undefined ? 2 * d.listLagMs : unmeasuredMs);
}

/** The earliest start of a walk that may decide for a pending requisition by what the lists do not hold. */
export function settledFrom(p: { since: number; postUntil?: number }, settleMs: number): number {
  return Math.max(p.since, p.postUntil ?? 0) + settleMs;
}

/**
 * The earliest start of a walk that can see a lost answer's RFQ: twice the measured list lag after the requisition
 * registered (after its answer was lost); UNMEASURED_SETTLE_MS while the lag is not measured.
 */
export function visibleFrom(p: { since: number }, d: Pick<Dialect, 'listLagMs'>): number {
  return p.since + (d.listLagMs !== undefined ? 2 * d.listLagMs : UNMEASURED_SETTLE_MS);
}

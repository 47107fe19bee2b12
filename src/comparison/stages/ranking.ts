/**
 * Ranks and ties: the deterministic tie-break between quotations, competition ranking and why a tie went the way it
 * did. Shared by the supplier order, the per-line statistics and the Award sheet.
 */
import type { SupplierSummary } from '../types.ts';

const keyCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Deterministic tie-break between quotations: earlier quotation date first (unknown last), then key. */
export function compareTie(
  a: Pick<SupplierSummary, 'quotationDate' | 'key'>,
  b: Pick<SupplierSummary, 'quotationDate' | 'key'>,
): number {
  const da = a.quotationDate ?? Number.POSITIVE_INFINITY;
  const db = b.quotationDate ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return keyCollator.compare(a.key, b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Why the first of `tied` (in tie order) wins: the earlier quotation, or the lower key when the dates are equal. */
export function tieReason(suppliers: SupplierSummary[], tied: number[]): string {
  const first = suppliers[tied[0]!]!;
  const second = suppliers[tied[1]!];
  return second && first.quotationDate === second.quotationDate
    ? 'the quotation dates are equal, so the lower key wins'
    : 'its quotation is the earlier one';
}

/** Competition ranking (1, 1, 3): equal values share a rank. `sorted` must be in ascending order of value. */
export function assignRanks<T>(sorted: T[], same: (a: T, b: T) => boolean, set: (t: T, rank: number) => void): void {
  let rank = 0;
  sorted.forEach((t, i) => {
    if (i === 0 || !same(t, sorted[i - 1]!)) rank = i + 1;
    set(t, rank);
  });
}

/** Stage 3 of a comparison (index.ts): the suppliers' column order, their ranks by total and deviation from the best. */
import { assignRanks, compareTie } from './ranking.ts';
import type { SupplierSummary } from '../types.ts';

export interface OrderStage {
  /** Column order: eligible full coverage by total, then eligible partial (more lines first), then not qualified. */
  suppliers: SupplierSummary[];
  /** Eligible full-coverage suppliers by total, then tie order: ranked[0] is the best single supplier. */
  ranked: SupplierSummary[];
}

export function orderSuppliers(unsorted: SupplierSummary[]): OrderStage {
  // The tie-break order once, as an integer, so per-line sorting never compares dates and keys again.
  [...unsorted].sort(compareTie).forEach((s, i) => (s.tieOrder = i));
  const tieOrder = (a: SupplierSummary, b: SupplierSummary): number => a.tieOrder - b.tieOrder;

  const ranked = unsorted
    .filter((s) => s.eligible && s.fullCoverage)
    .sort((a, b) => a.total.cmp(b.total) || tieOrder(a, b));
  assignRanks(
    ranked,
    (a, b) => a.total.eq(b.total),
    (s, r) => (s.rankByTotal = r),
  );
  const bestTotal = ranked[0]?.total;
  if (bestTotal !== undefined && !bestTotal.isZero()) {
    for (const s of unsorted) {
      if (s.fullCoverage) s.deviationFromBest = s.total.sub(bestTotal).div(bestTotal);
    }
  }
  const group = (s: SupplierSummary): number => (!s.eligible ? 2 : s.fullCoverage ? 0 : 1);
  const suppliers = [...unsorted].sort(
    (a, b) => group(a) - group(b) || b.linesQuoted - a.linesQuoted || a.total.cmp(b.total) || tieOrder(a, b),
  );
  return { suppliers, ranked };
}

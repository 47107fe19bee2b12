/** Stage 5 of a comparison (index.ts): do the quotes look like the other price basis than the configured one? */
import type { LineComparison, PriceBasis, PriceBasisWarning, SupplierSummary } from '../types.ts';

/**
 * Do the quotes look like the other price basis? For lines with qty >= 2 and an estimate, each quoted price is
 * nearer (by ratio) either the estimated unit price or the estimated line total; when most are nearer the other
 * basis than the configured one, every amount is likely off by the quantity. Doubles suffice for a ratio.
 */
export function checkPriceBasis(
  lines: LineComparison[],
  suppliers: SupplierSummary[],
  basis: PriceBasis,
): PriceBasisWarning | undefined {
  let compared = 0;
  let nearerOther = 0;
  for (const line of lines) {
    const qty = line.qty;
    if (qty === undefined || qty < 2 || line.estimatedUnit === undefined || line.estimatedTotal === undefined) continue;
    const estUnit = line.estimatedUnit.toNumber();
    const estTotal = line.estimatedTotal.toNumber();
    if (!(estUnit > 0) || !(estTotal > 0)) continue;
    for (const s of suppliers) {
      const text = s.quoted[line.index];
      if (text == null) continue;
      const p = Number(text);
      if (!(p > 0)) continue;
      compared++;
      const nearerUnit = Math.abs(Math.log(p / estUnit)) < Math.abs(Math.log(p / estTotal));
      if (nearerUnit !== (basis === 'unit')) nearerOther++;
    }
  }
  if (compared === 0 || nearerOther * 2 <= compared) return undefined;
  const looksLike: PriceBasis = basis === 'unit' ? 'line_total' : 'unit';
  return {
    configured: basis,
    looksLike,
    compared,
    nearerOther,
    text:
      `${nearerOther} of ${compared} quoted prices on lines with qty >= 2 are nearer the estimated ${looksLike === 'line_total' ? 'line total' : 'unit price'} ` +
      `than the estimated ${basis === 'unit' ? 'unit price' : 'line total'}: the quotes look like ${looksLike === 'line_total' ? 'LINE TOTALS' : 'UNIT PRICES'}, ` +
      `but QUOTATION_PRICE_BASIS=${basis}. If so, every total and award amount here is off by the quantity; check one quotation on the service and set QUOTATION_PRICE_BASIS=${looksLike}.`,
  };
}

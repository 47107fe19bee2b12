/**
 * The award in two lines for page 1 of a printout in blocks (a long or wide RFQ), whose award summary follows the
 * last line on a later page: the split award total and its coverage, the best single supplier or the winner, and
 * the ranking by total. Shown under the award status in the header block.
 */
import type { Decimal } from 'decimal.js';
import type { ComparisonModel } from '../types.ts';

/** Suppliers named in the ranking; the rest are on the Suppliers sheet. */
const RANKED_SHOWN = 5;

const money = (d: Decimal, currency: string | undefined): string =>
  `${d.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${currency ? ` ${currency}` : ''}`;

export function pageOneSummary(model: ComparisonModel): string {
  const { award, suppliers, lines, currency } = model;
  const name = (i: number): string => suppliers[i]!.name || `key ${suppliers[i]!.key}`;
  const parts = [
    `Split award ${money(award.splitTotal, currency)} (${award.splitLinesCovered} of ${lines.length} lines)`,
  ];
  if (award.winner) parts.push(`winner ${name(award.winner.supplier)} ${money(award.winner.total, currency)}`);
  else if (award.bestSingle)
    parts.push(`best single supplier ${name(award.bestSingle.supplier)} ${money(award.bestSingle.total, currency)}`);
  const ranked = suppliers
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.rankByTotal !== undefined)
    .sort((a, b) => a.s.rankByTotal! - b.s.rankByTotal! || a.s.tieOrder - b.s.tieOrder);
  const ranking =
    ranked.length === 0
      ? 'Ranking by total: no qualified supplier quoted every line'
      : `Ranking by total: ${ranked
          .slice(0, RANKED_SHOWN)
          .map(({ s, i }) => `${s.rankByTotal}. ${name(i)} ${money(s.total, currency)}`)
          .join(
            '; ',
          )}${ranked.length > RANKED_SHOWN ? `; ${ranked.length - RANKED_SHOWN} more on sheet "Suppliers"` : ''}`;
  return `${parts.join('; ')}.\n${ranking}.`;
}

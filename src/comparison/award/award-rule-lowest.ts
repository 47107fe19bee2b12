/** The award rule while no winning quotation decides: each line to its lowest qualified price. */
import type { AwardRule } from './award-rule.ts';
import { NoteList, supplierLabel } from '../notes.ts';
import { supplierLinePrice, tieReason } from '../stages/index.ts';

const NAME = 'lowest-qualified-price';

/**
 * Each line to its lowest eligible price (ties: earlier quotation, then key). When that split would go to several
 * suppliers and saves nothing against the best single supplier covering every line, that supplier gets every line
 * instead: one order instead of several, at the same total (its price equals the lowest on every line).
 */
export const lowestQualifiedPriceRule: AwardRule = {
  name: NAME,
  label: 'lowest qualified price',
  description:
    'Basis: per line, the lowest unit price among qualified quotations (not-qualified excluded; quotations without a decision yet count as eligible). Ties go to the earlier quotation, then the lower key.',
  appliesTo: () => true,
  apply({ input, lines, suppliers, ranked, stats, priceBasis }) {
    // A completed RFQ whose winner is not among the quotations received ends up here.
    const headline =
      input.winnerKey !== undefined
        ? `The winning quotation key ${input.winnerKey} is not among the quotations received; the award shows the lowest qualified price per line instead.`
        : undefined;
    const single = ranked[0];
    const splitSuppliers = new Set(lines.map((l) => l.best).filter((b) => b !== undefined)).size;
    if (single && splitSuppliers > 1 && stats.splitLinesCovered === lines.length && single.total.eq(stats.splitTotal)) {
      const si = suppliers.indexOf(single);
      const remark = 'splitting saves nothing: the single supplier gets every line (one order)';
      for (const line of lines) {
        const { unit, total } = supplierLinePrice(priceBasis, suppliers, lines, si, line.index);
        line.award = { supplier: si, unitPrice: unit, lineTotal: total, basis: NAME, remark };
      }
      const note = new NoteList('Award');
      note.add(
        `Splitting the award saves nothing against ${supplierLabel(single)}: every line is recommended to it (one order instead of ${splitSuppliers}).`,
      );
      return { notes: [note], headline };
    }
    for (const line of lines) {
      if (line.best !== undefined) {
        const tied = line.tiedAtBest;
        line.award = {
          supplier: line.best,
          unitPrice: line.lowest,
          lineTotal: line.bestLineTotal,
          basis: NAME,
          ...(tied.length > 1
            ? { remark: `tie between ${tied.length} suppliers at this price; ${tieReason(suppliers, tied)}` }
            : {}),
        };
      } else {
        line.noAwardReason = line.anyQuote ? 'quoted only by not-qualified suppliers' : 'no quote received';
      }
    }
    return { notes: [], headline };
  },
};

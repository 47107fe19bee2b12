/** The award rule of a completed RFQ whose winning quotation is among those received: the service's own decision. */
import type { AwardRule } from './award-rule.ts';
import { lineLabel, NoteList, supplierLabel } from '../notes.ts';
import { supplierLinePrice } from '../stages/index.ts';

/** Every line the winning quotation priced goes to it. */
export const winningQuotationRule: AwardRule = {
  name: 'winning-quotation',
  label: 'winning quotation',
  description:
    'Basis: the winning quotation of the completed RFQ. The scenarios below compare it with the lowest qualified prices.',
  finalWhenCompleted: true,
  appliesTo: ({ winnerIndex }) => winnerIndex >= 0,
  apply({ lines, suppliers, winnerIndex, priceBasis }) {
    const gaps = new NoteList('Winning quotation gaps');
    const w = suppliers[winnerIndex]!;
    for (const line of lines) {
      if (w.quoted[line.index] != null) {
        const { unit, total } = supplierLinePrice(priceBasis, suppliers, lines, winnerIndex, line.index);
        line.award = { supplier: winnerIndex, unitPrice: unit, lineTotal: total, basis: 'winning-quotation' };
      } else {
        line.noAwardReason = 'the winning quotation has no price for this line';
        gaps.add(
          `Line ${lineLabel(line)}: the winning quotation ${supplierLabel(w)} has no price for it; not awarded.`,
        );
      }
    }
    return {
      notes: [gaps],
      headline: `The RFQ is completed: the award follows the winning quotation ${supplierLabel(w)}.`,
    };
  },
};

/**
 * The award rule: which supplier each line goes to. One interface, so the next rule (a lot award, a preferred
 * supplier) is one more implementation, chosen in chooseAwardRule, and every output renders its result alike.
 */
import { Decimal } from 'decimal.js';
import { lineLabel, NoteList, supplierLabel } from './notes.ts';
import { supplierLinePrice, type LineStatsStage, type OrderStage } from './stages.ts';
import type {
  AwardBasis,
  AwardSummary,
  ComparisonInput,
  LineComparison,
  PriceBasis,
  SupplierSummary,
} from './types.ts';

export interface AwardContext {
  input: ComparisonInput;
  priceBasis: PriceBasis;
  lines: LineComparison[];
  suppliers: SupplierSummary[];
  ranked: OrderStage['ranked'];
  stats: LineStatsStage;
  winnerIndex: number;
  /** Parts of the RFQ or of a quotation left out unread that could change the award (left-out.ts). */
  blockedBy?: string[];
}

export interface AwardRule {
  readonly basis: AwardBasis;
  /** Sets `award` (or `noAwardReason`) on every line; reports what the notes should say. */
  apply(ctx: AwardContext): { notes: NoteList[] };
}

/** Completed RFQ: every line the winning quotation priced goes to it. */
export const winningQuotationRule: AwardRule = {
  basis: 'winning-quotation',
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
    return { notes: [gaps] };
  },
};

/**
 * Each line to its lowest eligible price (ties: earlier quotation, then key). When that split would go to several
 * suppliers and saves nothing against the best single supplier covering every line, that supplier gets every line
 * instead: one order instead of several, at the same total (its price equals the lowest on every line).
 */
export const lowestQualifiedPriceRule: AwardRule = {
  basis: 'lowest-qualified-price',
  apply({ lines, suppliers, ranked, stats, priceBasis }) {
    const single = ranked[0];
    const splitSuppliers = new Set(lines.map((l) => l.best).filter((b) => b !== undefined)).size;
    if (single && splitSuppliers > 1 && stats.splitLinesCovered === lines.length && single.total.eq(stats.splitTotal)) {
      const si = suppliers.indexOf(single);
      for (const line of lines) {
        const { unit, total } = supplierLinePrice(priceBasis, suppliers, lines, si, line.index);
        line.award = { supplier: si, unitPrice: unit, lineTotal: total, basis: 'lowest-qualified-price', single: true };
      }
      const note = new NoteList('Award');
      note.add(
        `Splitting the award saves nothing against ${supplierLabel(single)}: every line is recommended to it (one order instead of ${splitSuppliers}).`,
      );
      return { notes: [note] };
    }
    for (const line of lines) {
      if (line.best !== undefined) {
        line.award = {
          supplier: line.best,
          unitPrice: line.lowest,
          lineTotal: line.bestLineTotal,
          basis: 'lowest-qualified-price',
        };
      } else {
        line.noAwardReason = line.anyQuote ? 'quoted only by not-qualified suppliers' : 'no quote received';
      }
    }
    return { notes: [] };
  },
};

export function chooseAwardRule(winnerIndex: number): AwardRule {
  return winnerIndex >= 0 ? winningQuotationRule : lowestQualifiedPriceRule;
}

/** Runs the rule and sums what it awarded, with the split versus single-supplier scenarios beside it. */
export function decideAward(rule: AwardRule, ctx: AwardContext): { award: AwardSummary; notes: NoteList[] } {
  const { lines, suppliers, ranked, stats, winnerIndex } = ctx;
  const { notes } = rule.apply(ctx);
  let awardedTotal = new Decimal(0);
  let awardedLines = 0;
  for (const line of lines) {
    if (!line.award) continue;
    awardedLines++;
    if (line.award.lineTotal !== undefined) awardedTotal = awardedTotal.add(line.award.lineTotal);
  }
  const bestSingleSupplier = ranked[0];
  const undecided =
    suppliers.filter((s) => s.decision === 'undecided').length + (ctx.input.invalidQuotations?.length ?? 0);
  const state = ctx.input.state;
  // The ERP acts on an award file by its external_ids: with lines that may be mislabelled there is none to act on.
  const withheld = ctx.input.erpIdProblem;
  const blockedBy = ctx.blockedBy ?? [];
  const finalBecause =
    withheld !== undefined || blockedBy.length > 0
      ? undefined
      : rule.basis === 'winning-quotation' && state === 'completed'
        ? 'winning-quotation'
        : (state === 'closed' || state === 'completed') && suppliers.length > 0 && undecided === 0
          ? 'all-decided'
          : undefined;
  const award: AwardSummary = {
    basis: rule.basis,
    final: finalBecause !== undefined,
    ...(finalBecause !== undefined ? { finalBecause } : {}),
    ...(withheld !== undefined ? { withheld } : {}),
    undecided,
    ...(blockedBy.length > 0 ? { blockedBy } : {}),
    splitTotal: stats.splitTotal,
    splitLinesCovered: stats.splitLinesCovered,
    bestSingle: bestSingleSupplier
      ? { supplier: suppliers.indexOf(bestSingleSupplier), total: bestSingleSupplier.total }
      : undefined,
    awardedTotal,
    awardedLines,
    estimatedTotal: stats.estimatedTotal,
  };
  if (award.bestSingle && stats.splitLinesCovered === lines.length) {
    award.splitSaving = award.bestSingle.total.sub(stats.splitTotal);
    if (!award.bestSingle.total.isZero()) award.splitSavingPct = award.splitSaving.div(award.bestSingle.total);
  }
  if (winnerIndex >= 0) {
    const w = suppliers[winnerIndex]!;
    award.winner = { supplier: winnerIndex, total: w.total, linesQuoted: w.linesQuoted };
  }
  return { award, notes };
}

/**
 * The award rule: which supplier each line goes to. One interface, so the next rule (a lot award, a preferred
 * supplier, at most two suppliers) is one file of its own plus one line in award-rules.ts, and every output renders
 * its result alike: the rule names itself, says how it decides, and explains its own lines.
 */
import { Decimal } from 'decimal.js';
import type { NoteList } from '../notes.ts';
import type { LineStatsStage, OrderStage } from '../stages/index.ts';
import type { AwardSummary, ComparisonInput, LineComparison, PriceBasis, SupplierSummary } from '../types.ts';

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
  /** The award's basis: written in the award file's `basis` column (`lowest-qualified-price`). */
  readonly name: string;
  /** The Award sheet's Basis column for a line it awarded, and the summary's award basis (`lowest qualified price`). */
  readonly label: string;
  /** The Award sheet's second line: how it decides (`Basis: ...`). */
  readonly description: string;
  /** The RFQ's completion makes its award final, every quotation decided or not (it follows the service's winner). */
  readonly finalWhenCompleted?: boolean;
  /** Whether it decides this RFQ's award: the rules are tried in order (award-rules.ts), the last applies always. */
  appliesTo(ctx: AwardContext): boolean;
  /**
   * Sets `award` (or `noAwardReason`) on every line; reports what the notes should say: lists of their own, and the
   * note on the award as a whole (topic Award) when there is one.
   */
  apply(ctx: AwardContext): { notes: NoteList[]; headline?: string };
}

/** Runs the rule and sums what it awarded, with the split versus single-supplier scenarios beside it. */
export function decideAward(
  rule: AwardRule,
  ctx: AwardContext,
): { award: AwardSummary; notes: NoteList[]; headline?: string } {
  const { lines, suppliers, ranked, stats, winnerIndex } = ctx;
  const { notes, headline } = rule.apply(ctx);
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
      : rule.finalWhenCompleted && state === 'completed'
        ? 'winning-quotation'
        : (state === 'closed' || state === 'completed') && suppliers.length > 0 && undecided === 0
          ? 'all-decided'
          : undefined;
  const award: AwardSummary = {
    basis: rule.name,
    basisLabel: rule.label,
    basisDescription: rule.description,
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
  return { award, notes, ...(headline !== undefined ? { headline } : {}) };
}

/**
 * The quote comparison as data: every decimal sum, rank, tie and award decision, computed once and exactly
 * (decimal.js). The workbook and the award CSV only render this model, so both always agree.
 *
 * buildComparison runs the stages (stages/) and the award rule (award/award-rule.ts), then writes the notes.
 *
 * Assumptions (also printed in the workbook's notes):
 * - A quotation's `price` for a line is the UNIT price (line total = unit price x qty), or with
 *   QUOTATION_PRICE_BASIS=line_total the LINE TOTAL (unit price = line total / qty).
 * - `estimated_price` of a line is its estimated TOTAL; estimated unit = total / qty.
 * - Not-qualified quotations are shown but excluded from per-line statistics, ranks and the award; quotations
 *   without a decision yet count as eligible.
 */
import { chooseAwardRule, decideAward, type AwardContext } from './award/index.ts';
import { isValidTimeZone, minuteText } from '../core/index.ts';
import { leftOutParts, serviceWordNotes } from './left-out.ts';
import { NoteList } from './notes.ts';
import { responseRate, responseText } from './responses.ts';
import {
  checkPriceBasis,
  DERIVED_UNIT_PLACES,
  lineStatistics,
  normaliseLines,
  normaliseQuotations,
  orderSuppliers,
  type LinesStage,
  type LineStatsStage,
  type QuotationsStage,
} from './stages/index.ts';
import type {
  AwardSummary,
  ComparisonInput,
  ComparisonModel,
  ComparisonNote,
  PriceBasis,
  PriceBasisWarning,
  SupplierSummary,
} from './types.ts';

/** Why the recommendation is a draft: no award file is written for it. */
export function draftText(
  award: Pick<AwardSummary, 'undecided' | 'blockedBy' | 'withheld'>,
  state: ComparisonInput['state'],
): string {
  if (award.withheld !== undefined)
    return `WITHHELD: no award file is written, because the ERP's ids of the lines are not certain: ${award.withheld}. It is written once the RFQ's lines at the service match what was posted (or the service shows each line's external_id).`;
  const { undecided, blockedBy = [] } = award;
  const unread = `${blockedBy.slice(0, 3).join('; ')}${blockedBy.length > 3 ? ` and ${blockedBy.length - 3} more` : ''}`;
  const why =
    state === 'open'
      ? 'the RFQ is still open'
      : state === 'cancelled'
        ? 'the RFQ was cancelled'
        : blockedBy.length > 0
          ? `part of what the service answered could not be read and could change the award (${unread}; see Notes)`
          : `${undecided} quotation${undecided === 1 ? ' has' : 's have'} no qualification decision yet`;
  const until =
    blockedBy.length > 0 && state !== 'open' && state !== 'cancelled'
      ? 'it becomes final once the service answers those parts in a readable shape'
      : 'it becomes final when every quotation is decided or the RFQ is completed with its winning quotation';
  return `DRAFT: ${why}. The award recommendation is not final and no award file is written; ${until}.`;
}

/** Pure: all decimal maths, ranks, ties and the award recommendation. */
export function buildComparison(input: ComparisonInput): ComparisonModel {
  const { rfq } = input;
  let timeZone = input.timeZone ?? 'UTC';
  const tzProblem = !isValidTimeZone(timeZone);
  if (tzProblem) timeZone = 'UTC';

  const linesStage = normaliseLines(rfq);
  const { lines } = linesStage;
  const quotations = normaliseQuotations(input, linesStage);
  const { suppliers, ranked } = orderSuppliers(quotations.suppliers);
  const winnerIndex = suppliers.findIndex((s) => s.winner);
  const priceBasis = input.priceBasis ?? 'unit';
  const stats = lineStatistics(rfq, lines, suppliers, priceBasis, input.erpPrices);
  const priceBasisWarning = checkPriceBasis(lines, suppliers, priceBasis);
  const leftOut = leftOutParts(input, stats.ties.count > 0);
  const awardContext: AwardContext = {
    input,
    priceBasis,
    lines,
    suppliers,
    ranked,
    stats,
    winnerIndex,
    blockedBy: leftOut.couldChangeAward,
  };
  const { award, notes: awardNotes, headline } = decideAward(chooseAwardRule(awardContext), awardContext);

  const responses = responseRate(input.vendors, suppliers);
  const notes = comparisonNotes({
    input,
    timeZone,
    tzProblem,
    priceBasis,
    priceBasisWarning,
    suppliers,
    award,
    awardHeadline: headline,
    awardNotes: [leftOut.notes, ...serviceWordNotes(input), ...awardNotes],
    stats,
    quotations,
    linesStage,
  });
  if (responses) notes.push({ topic: 'Vendors', text: vendorsNote(responses) });

  return {
    input,
    timeZone,
    priceBasis,
    ...(priceBasisWarning ? { priceBasisWarning } : {}),
    ...(input.currency ? { currency: input.currency } : {}),
    suppliers,
    lines,
    winnerIndex: winnerIndex >= 0 ? winnerIndex : undefined,
    award,
    notes,
    ...(responses ? { responses } : {}),
    counts: {
      ties: stats.ties.count,
      linesWithoutQuote: stats.noQuote.count,
      linesWithoutEligibleQuote: stats.noEligible.count,
      invalidQuotations: (input.invalidQuotations ?? []).length,
    },
  };
}

/** What comparisonNotes reads: the input and what the stages and the award rule made of it. */
interface NotesFrom {
  input: ComparisonInput;
  timeZone: string;
  /** The configured time zone is unknown (timeZone fell back to UTC). */
  tzProblem: boolean;
  priceBasis: PriceBasis;
  priceBasisWarning: PriceBasisWarning | undefined;
  suppliers: SupplierSummary[];
  award: AwardSummary;
  /** The award rule's note on the award as a whole. */
  awardHeadline: string | undefined;
  awardNotes: NoteList[];
  stats: LineStatsStage;
  quotations: QuotationsStage;
  linesStage: LinesStage;
}

/** The notes of the comparison, most important first. */
function comparisonNotes(from: NotesFrom): ComparisonNote[] {
  const { input, timeZone, tzProblem, priceBasis, priceBasisWarning, suppliers, award, awardHeadline, awardNotes } =
    from;
  const { stats, quotations, linesStage } = from;
  const notes: ComparisonNote[] = [];
  if (priceBasisWarning) notes.push({ topic: 'Price basis WARNING', text: priceBasisWarning.text });
  notes.push({
    topic: 'Prices',
    text:
      (priceBasis === 'unit'
        ? 'A quotation price is the UNIT price of its line (QUOTATION_PRICE_BASIS=unit); line total = unit price x qty.'
        : `A quotation price is the LINE TOTAL of its line (QUOTATION_PRICE_BASIS=line_total); unit price = line total / qty, exact where the division ends, else rounded to ${DERIVED_UNIT_PLACES} decimals.`) +
      ' The estimated price of a line is its estimated total; estimated unit = estimated total / qty. Amounts are computed exactly (decimal) and ' +
      (input.currency
        ? `are all in ${input.currency}, the currency of the requisition.`
        : 'name no currency: neither the mapping profile nor REQUISITION_CURRENCY gives one.'),
  });
  if (stats.erpEstimated > 0) {
    notes.push({
      topic: 'Estimates',
      text: `${stats.erpEstimated} line${stats.erpEstimated === 1 ? ' is' : 's are'} estimated from the ERP export's own unit price per price unit (e.g. 12.35 per 100 = 0.1235 each), exactly; the service keeps only a whole-number estimated total, which would show savings from rounding alone.`,
    });
  }
  notes.push({
    topic: 'Eligibility',
    text: 'Not-qualified quotations are shown greyed and excluded from the per-line statistics (lowest, highest, mean, best), the ranks and the award. Quotations without a qualification decision yet count as eligible.',
  });
  notes.push({
    topic: 'Ranks and ties',
    text: 'Equal unit prices (or equal totals) share a rank (1, 1, 3). When several suppliers tie for the lowest price, the one with the earlier quotation date (equal dates: the lower key) is shown as best and recommended. When splitting the award across suppliers saves nothing against the best single supplier, that supplier is recommended for every line (one order).',
  });
  notes.push({
    topic: 'Time zone',
    text: tzProblem
      ? `The configured time zone "${input.timeZone}" is unknown; dates are shown in UTC.`
      : `All dates and times are shown in ${timeZone}.`,
  });
  if (input.state === 'open') {
    notes.push({
      topic: 'Status',
      text: 'The RFQ is still open: quotations may still arrive or change; this comparison is provisional.',
    });
  } else if (input.state === 'cancelled') {
    notes.push({ topic: 'Status', text: 'The RFQ was cancelled: the award recommendation is for information only.' });
  }
  if (awardHeadline !== undefined) notes.push({ topic: 'Award', text: awardHeadline });
  if (award.withheld !== undefined) notes.unshift({ topic: 'ERP ids WARNING', text: draftText(award, input.state) });
  else if (!award.final && suppliers.length > 0) {
    notes.push({ topic: 'Award', text: draftText(award, input.state) });
  }
  if (input.erpIdsBy && input.erpIdsBy.byPosition > 0 && award.withheld === undefined) {
    notes.push({
      topic: 'ERP ids',
      text: `The service's lists do not show external_id on ${input.erpIdsBy.byPosition} line(s): each one's ERP id is the one posted at its position, checked against the product and quantity posted there.`,
    });
  }
  if (input.quotations.length === 0)
    notes.push({ topic: 'Quotations', text: 'No quotations were received for this RFQ.' });
  const invalid = input.invalidQuotations ?? [];
  const invalidList = new NoteList('Malformed quotations');
  for (const bad of invalid) {
    invalidList.add(
      `Quotation${bad.quotation_key !== undefined ? ` key ${bad.quotation_key}` : ' without a key'} could not be read and is not compared: ${bad.reason}`,
    );
  }
  const lineCount = linesStage.lines.length;
  invalidList.flush(notes);
  stats.noQuote.flush(notes, (n) => `${n} of ${lineCount} lines received no quote (the cells are hatched, never 0).`);
  stats.noEligible.flush(notes, (n) => `${n} lines were quoted only by not-qualified suppliers.`);
  stats.ties.flush(notes, (n) => `${n} lines have a tie for the lowest price.`);
  for (const list of awardNotes) list.flush(notes);
  quotations.badPrices.flush(notes);
  quotations.unknownLines.flush(notes);
  quotations.duplicates.flush(notes);
  linesStage.noQty.flush(notes);

  return notes;
}

/** The Notes sheet's line on who was asked and who answered. */
function vendorsNote(r: NonNullable<ComparisonModel['responses']>): string {
  const asOf = r.asOf !== undefined ? ` (vendor directory of ${minuteText(r.asOf)} UTC)` : '';
  const chase =
    r.notQuoted.length > 0
      ? ` The ${r.notQuoted.length} who did not quote are listed on sheet "Suppliers" with their contact.`
      : '';
  return `${responseText(r)}${asOf}${chase} Suppliers see the RFQs of the categories they follow; a quotation is a vendor's when its key is the vendor's id or its supplier name is the vendor's.`;
}

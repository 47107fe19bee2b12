/**
 * Stage 4 of a comparison (index.ts), per line: the estimates, the ranks of the quotes, lowest, highest and mean,
 * the best supplier and its ties, the savings; over all lines the split-award totals.
 */
import { Decimal } from 'decimal.js';
import type { ListedRfq } from '../../sourcing/index.ts';
import { lineLabel, NoteList, supplierLabel } from '../notes.ts';
import { asUnit, parseDecimal, priceParts } from './price-parts.ts';
import { LinePrices } from './line-prices.ts';
import { assignRanks, tieReason } from './ranking.ts';
import type { LineComparison, PriceBasis, SupplierSummary } from '../types.ts';

export interface LineStatsStage {
  splitTotal: Decimal;
  splitLinesCovered: number;
  estimatedTotal?: Decimal;
  ties: NoteList;
  noQuote: NoteList;
  noEligible: NoteList;
  /** Lines whose estimates come from the ERP's own unit price per price unit. */
  erpEstimated: number;
}

/** Unit price and line total of supplier `si` on line `li`, exact; each undefined when it cannot be known. */
export function supplierLinePrice(
  basis: PriceBasis,
  suppliers: SupplierSummary[],
  lines: LineComparison[],
  si: number,
  li: number,
): { unit?: Decimal; total?: Decimal } {
  const p = suppliers[si]!.quoted[li];
  return p == null ? {} : priceParts(basis, new Decimal(p), lines[li]!.qty);
}

/**
 * The export's own price (12.35 per 100 = 0.1235 each) replaces the estimates, exactly: the service keeps only a
 * whole-number estimated total. False when the line has none. A function of its own, not a branch of the per-line
 * loop: inlined there, V8 kept every Decimal of the loop longer (measured at 5,000 x 50: 377-383 MB peak RSS
 * instead of 285-305 MB).
 */
function erpEstimate(line: LineComparison, erpPrices: Record<string, [string, string]>): boolean {
  const erp = line.externalId ? erpPrices[line.externalId] : undefined;
  const unit = erp ? parseDecimal(erp[0]) : undefined;
  const per = erp ? parseDecimal(erp[1]) : undefined;
  if (unit === undefined || per === undefined || !per.gt(0)) return false;
  line.estimatedUnit = unit.div(per);
  if (line.qty !== undefined) line.estimatedTotal = unit.mul(line.qty).div(per);
  return true;
}

/** What the per-line steps share, over all lines of one comparison. */
interface LineContext {
  basis: PriceBasis;
  lines: LineComparison[];
  suppliers: SupplierSummary[];
  ties: NoteList;
}

/** Estimates, ranks, lowest/highest/mean, the best supplier and ties of every line; the split-award totals. */
export function lineStatistics(
  rfq: ListedRfq,
  lines: LineComparison[],
  suppliers: SupplierSummary[],
  basis: PriceBasis,
  erpPrices?: Record<string, [string, string]>,
): LineStatsStage {
  let erpEstimated = 0;
  const ties = new NoteList('Ties');
  const noQuote = new NoteList('Lines without any quote');
  const noEligible = new NoteList('Lines without a qualified quote');
  const ctx: LineContext = { basis, lines, suppliers, ties };
  let splitTotal = new Decimal(0);
  let splitLinesCovered = 0;
  let estimatedSum = new Decimal(0);
  let estimatedKnown = false;
  const order: number[] = [];
  const prices = new LinePrices(suppliers, basis);
  for (const line of lines) {
    if (estimateLine(line, rfq.lines[line.index]!, erpPrices)) erpEstimated++;
    if (line.estimatedTotal !== undefined) {
      estimatedSum = estimatedSum.add(line.estimatedTotal);
      estimatedKnown = true;
    }
    prices.at(line.index);
    rankQuotes(line, suppliers, prices, order);
    if (order.length > 0) {
      bestOfLine(line, order, prices, ctx);
      splitLinesCovered++;
      if (line.bestLineTotal !== undefined) splitTotal = splitTotal.add(line.bestLineTotal);
    } else if (!line.anyQuote) {
      noQuote.add(`Line ${lineLabel(line)}${line.product ? ` "${line.product}"` : ''} received no quote.`);
    } else {
      noEligible.add(`Line ${lineLabel(line)} was quoted only by not-qualified suppliers.`);
    }
  }
  return {
    splitTotal,
    splitLinesCovered,
    ...(estimatedKnown ? { estimatedTotal: estimatedSum } : {}),
    ties,
    noQuote,
    noEligible,
    erpEstimated,
  };
}

/**
 * The line's estimated total and unit price: the service's estimated total (or its each price), replaced by the ERP's
 * own price where the export gave one. True when the ERP's price was used.
 */
function estimateLine(
  line: LineComparison,
  listed: ListedRfq['lines'][number],
  erpPrices: Record<string, [string, string]> | undefined,
): boolean {
  const estTotalGiven = parseDecimal(listed.estimated_price);
  const eachPrice = parseDecimal(listed.each_price);
  const qty = line.qty;
  line.estimatedTotal = estTotalGiven;
  if (estTotalGiven !== undefined && qty !== undefined && qty !== 0) line.estimatedUnit = estTotalGiven.div(qty);
  else if (eachPrice !== undefined) line.estimatedUnit = eachPrice;
  if (estTotalGiven === undefined && eachPrice !== undefined && qty !== undefined)
    line.estimatedTotal = eachPrice.mul(qty);
  return erpPrices !== undefined && erpEstimate(line, erpPrices);
}

/**
 * The eligible quotes of `line` ranked into `order` (reused from line to line); sets the line's ranks, its number of
 * quotes and whether anyone quoted it.
 */
function rankQuotes(line: LineComparison, suppliers: SupplierSummary[], prices: LinePrices, order: number[]): void {
  const supplierCount = suppliers.length;
  line.ranks = new Array<number>(supplierCount).fill(0);
  order.length = 0;
  let anyQuote = false;
  for (let si = 0; si < supplierCount; si++) {
    if (prices.text(si) === null) continue;
    anyQuote = true;
    if (suppliers[si]!.eligible) order.push(si);
  }
  line.anyQuote = anyQuote;
  order.sort((a, b) => prices.compare(a, b) || suppliers[a]!.tieOrder - suppliers[b]!.tieOrder);
  assignRanks(
    order,
    (a, b) => prices.compare(a, b) === 0,
    (si, r) => (line.ranks[si] = r),
  );
  line.quotes = order.length;
}

/**
 * Lowest, highest and mean of the line's eligible quotes (`order`, ranked, not empty), its best supplier and those
 * tied with it, its best line total and the savings against the estimate.
 */
function bestOfLine(
  line: LineComparison,
  order: number[],
  prices: LinePrices,
  { basis, lines, suppliers, ties }: LineContext,
): void {
  const li = line.index;
  const qty = line.qty;
  // Within a line every quote has the same qty: ranking the quoted prices ranks unit prices and totals alike.
  const bestIdx = order[0]!;
  const lowest = prices.exact(bestIdx);
  line.lowest = asUnit(basis, lowest, qty);
  line.highest = asUnit(basis, prices.exact(order[order.length - 1]!), qty);
  line.mean = asUnit(basis, prices.sum(order).div(order.length), qty);
  line.best = bestIdx;
  line.tiedAtBest = [];
  for (const si of order) {
    if (prices.compare(si, bestIdx) !== 0) break;
    line.tiedAtBest.push(si);
  }
  line.bestLineTotal = supplierLinePrice(basis, suppliers, lines, bestIdx, li).total;
  if (line.bestLineTotal !== undefined && line.estimatedTotal !== undefined) {
    line.savings = line.estimatedTotal.sub(line.bestLineTotal);
    if (!line.estimatedTotal.isZero()) line.savingsPct = line.savings.div(line.estimatedTotal);
  }
  if (line.tiedAtBest.length > 1) {
    const tied = line.tiedAtBest;
    ties.add(
      () =>
        `Line ${lineLabel(line)}: ${tied.length} suppliers tie at ${basis === 'unit' ? 'unit price' : 'line total'} ${lowest.toFixed()} ` +
        `(${tied.map((si) => supplierLabel(suppliers[si]!)).join(', ')}); ` +
        `${supplierLabel(suppliers[bestIdx]!)} is shown as best: ${tieReason(suppliers, tied)}.`,
    );
  }
}

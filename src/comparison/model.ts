/**
 * The quote comparison as data: every decimal sum, rank, tie and award decision, computed once and exactly
 * (decimal.js). The workbook and the award CSV only render this model, so both always agree.
 *
 * Assumptions (also printed in the workbook's notes):
 * - A quotation's `price` for a line is the UNIT price; line total = unit price x qty.
 * - `estimated_price` of a line is its estimated TOTAL; estimated unit = total / qty.
 * - Not-qualified quotations are shown but excluded from per-line statistics, ranks and the award; quotations
 *   without a decision yet count as eligible.
 */
import { Decimal } from 'decimal.js';
import type { ListedRfq, Quotation } from '../sourcing/types.ts';

export interface ComparisonInput {
  rfq: ListedRfq;
  state: 'open' | 'closed' | 'completed' | 'cancelled';
  quotations: Quotation[];
  /** Quotations that broke the schema upstream: reported in the notes, never blocking. */
  invalidQuotations?: Array<{ quotation_key?: string; reason: string }>;
  /** quotation_key of the winning quotation once the RFQ is completed (`status=success`). */
  winnerKey?: string;
  requisition?: { key: string; sourceFile: string; profile?: string };
  generatedAt: Date;
  /** IANA zone for displayed dates, default 'UTC'. */
  timeZone?: string;
  /** Workbook version: a quotation revision after the first workbook triggers a new version. */
  version?: number;
}

export type SupplierDecision = 'qualified' | 'not qualified' | 'undecided';
export type AwardBasis = 'lowest-qualified-price' | 'winning-quotation';

export interface SupplierSummary {
  key: string;
  name: string;
  revision?: number;
  quotationDate?: number;
  notes?: string;
  decision: SupplierDecision;
  /** Counts for statistics, ranks and the award (not `not qualified`). */
  eligible: boolean;
  winner: boolean;
  /** Quotation attachments plus documents attached to its lines. */
  documents: number;
  /**
   * Indexed by line index: the validated unit price as quoted (a decimal string), or null when this supplier gave
   * no usable price. Strings, not Decimals: a Decimal costs ~250 bytes, and 250,000 of them would dominate memory;
   * `unitPrice()` parses one when needed.
   */
  unitPrices: Array<string | null>;
  /**
   * Indexed by line index, for display only (a cell holds a double): the unit price and the exact line total
   * (unit price x qty, computed in decimal) converted once; NaN where there is none. Keeping these as doubles
   * instead of 250,000 retained Decimal totals is what keeps a 5,000 x 50 comparison small.
   */
  unitValues: Float64Array;
  lineTotalValues: Float64Array;
  linesQuoted: number;
  /** linesQuoted / all lines (0 when the RFQ has no lines). */
  coverage: Decimal;
  fullCoverage: boolean;
  /** Sum of the line totals of the quoted lines. */
  total: Decimal;
  /** Position in the deterministic tie-break order (earlier quotation date, then key). */
  tieOrder: number;
  /** Rank by total among eligible suppliers with full coverage (equal totals share a rank). */
  rankByTotal?: number;
  /** (total - best total) / best total, for full-coverage suppliers; a fraction, 0.05 = 5 %. */
  deviationFromBest?: Decimal;
}

export interface LineComparison {
  index: number;
  lineId: string;
  externalId: string;
  product: string;
  specification: string;
  uom: string;
  /** An integer per the interface; a number, so a line holds no Decimal until its statistics are computed. */
  qty?: number;
  estimatedTotal?: Decimal;
  estimatedUnit?: Decimal;
  /** Indexed by supplier index: rank of the unit price among eligible prices of this line; 0 = not ranked. */
  ranks: number[];
  /** Eligible quotes for this line. */
  quotes: number;
  lowest?: Decimal;
  highest?: Decimal;
  mean?: Decimal;
  /** Supplier index with the lowest eligible unit price (ties broken by earlier quotation date, then key). */
  best?: number;
  /** All supplier indexes sharing the lowest eligible price, in tie-break order (length > 1: a tie). */
  tiedAtBest: number[];
  bestLineTotal?: Decimal;
  /** estimatedTotal - bestLineTotal (positive = saving). */
  savings?: Decimal;
  /** savings / estimatedTotal, a fraction. */
  savingsPct?: Decimal;
  award?: { supplier: number; unitPrice: Decimal; lineTotal?: Decimal; basis: AwardBasis };
  /** Why the line has no award, when it has none. */
  noAwardReason?: string;
}

export interface AwardSummary {
  basis: AwardBasis;
  /** Each line to its lowest eligible price. */
  splitTotal: Decimal;
  splitLinesCovered: number;
  /** The eligible full-coverage supplier with the lowest total. */
  bestSingle?: { supplier: number; total: Decimal };
  /** bestSingle.total - splitTotal: what splitting the award saves. */
  splitSaving?: Decimal;
  /** splitSaving / bestSingle.total, a fraction. */
  splitSavingPct?: Decimal;
  winner?: { supplier: number; total: Decimal; linesQuoted: number };
  /** Sum of the awarded line totals (per the basis). */
  awardedTotal: Decimal;
  awardedLines: number;
  estimatedTotal?: Decimal;
}

export interface ComparisonNote {
  topic: string;
  text: string;
}

export interface ComparisonModel {
  input: ComparisonInput;
  timeZone: string;
  /** Columns in display order: eligible full coverage by total, then partial coverage, then not qualified. */
  suppliers: SupplierSummary[];
  lines: LineComparison[];
  winnerIndex?: number;
  award: AwardSummary;
  notes: ComparisonNote[];
  /** Counts behind the notes (lists in the notes are capped). */
  counts: { ties: number; linesWithoutQuote: number; linesWithoutEligibleQuote: number; invalidQuotations: number };
}

/** How many items of one kind the notes list before summarising the rest. */
const NOTE_LIST_CAP = 50;

const keyCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Deterministic tie-break between quotations: earlier quotation date first (unknown last), then key. */
function compareTie(a: Pick<SupplierSummary, 'quotationDate' | 'key'>, b: Pick<SupplierSummary, 'quotationDate' | 'key'>): number {
  const da = a.quotationDate ?? Number.POSITIVE_INFINITY;
  const db = b.quotationDate ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return keyCollator.compare(a.key, b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function parseDecimal(text: string | undefined | null): Decimal | undefined {
  if (text === undefined || text === null) return undefined;
  const t = String(text).trim();
  if (t === '') return undefined;
  try {
    const d = new Decimal(t);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

function countDocs(docs: unknown): number {
  if (Array.isArray(docs)) return docs.length;
  if (docs && typeof docs === 'object') return Object.keys(docs).length;
  return 0;
}

/** Collects notes of one kind, listing at most NOTE_LIST_CAP of them. */
class NoteList {
  readonly topic: string;
  readonly items: string[] = [];
  count = 0;
  constructor(topic: string) {
    this.topic = topic;
  }
  /** `text` may be a function: only the listed notes are ever formatted. */
  add(text: string | (() => string)): void {
    this.count++;
    if (this.items.length < NOTE_LIST_CAP) this.items.push(typeof text === 'function' ? text() : text);
  }
  flush(into: ComparisonNote[], summary?: (count: number) => string): void {
    if (this.count === 0) return;
    if (summary) into.push({ topic: this.topic, text: summary(this.count) });
    for (const text of this.items) into.push({ topic: this.topic, text });
    if (this.count > this.items.length) {
      into.push({ topic: this.topic, text: `... and ${this.count - this.items.length} more not listed here.` });
    }
  }
}

export function supplierLabel(s: Pick<SupplierSummary, 'name' | 'key'>): string {
  return s.name ? `${s.name} (key ${s.key})` : `key ${s.key}`;
}

export function lineLabel(l: Pick<LineComparison, 'externalId' | 'lineId'>): string {
  return l.externalId ? `${l.externalId} (line_id ${l.lineId})` : `line_id ${l.lineId}`;
}

/** Competition ranking (1, 1, 3): equal values share a rank. `values` must be sorted ascending by `value`. */
function assignRanks<T>(sorted: T[], value: (t: T) => Decimal, set: (t: T, rank: number) => void): void {
  let rank = 0;
  let prev: Decimal | undefined;
  sorted.forEach((t, i) => {
    const v = value(t);
    if (prev === undefined || !v.eq(prev)) rank = i + 1;
    set(t, rank);
    prev = v;
  });
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Pure: all decimal maths, ranks, ties and the award recommendation. */
export function buildComparison(input: ComparisonInput): ComparisonModel {
  const notes: ComparisonNote[] = [];
  const { rfq } = input;

  let timeZone = input.timeZone ?? 'UTC';
  const tzProblem = !isValidTimeZone(timeZone);
  if (tzProblem) timeZone = 'UTC';

  // ---- lines
  const lineIndex = new Map<string, number>();
  const noQty = new NoteList('Lines without quantity');
  const lines: LineComparison[] = rfq.lines.map((l, index) => {
    lineIndex.set(l.line_id, index);
    const qty = typeof l.qty === 'number' && Number.isFinite(l.qty) ? l.qty : undefined;
    // The estimates are computed in the per-line pass below, not here: a burst of Decimals that all stay alive
    // makes V8 pretenure every later Decimal into old space (measured: +100 MB peak RSS at 5,000 x 50).
    const line: LineComparison = {
      index,
      lineId: l.line_id,
      externalId: l.external_id ?? '',
      product: l.product_name ?? '',
      specification: l.specification ?? '',
      uom: l.uom ?? '',
      qty,
      ranks: [],
      quotes: 0,
      tiedAtBest: [],
    };
    if (qty === undefined) noQty.add(`${lineLabel(line)} has no quantity: its line totals are left empty.`);
    return line;
  });
  const lineCount = lines.length;

  // ---- quotations: one per key (the highest revision wins), prices per line
  const duplicates = new NoteList('Duplicate quotations');
  const byKey = new Map<string, Quotation>();
  for (const q of input.quotations) {
    const key = String(q.quotation_key);
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, q);
      continue;
    }
    const newer =
      (q.revision_no ?? -1) !== (prev.revision_no ?? -1)
        ? (q.revision_no ?? -1) > (prev.revision_no ?? -1)
        : (q.quotation_date ?? -1) > (prev.quotation_date ?? -1);
    const kept = newer ? q : prev;
    duplicates.add(
      `Quotation key ${key} appears more than once; revision ${kept.revision_no ?? '?'} is compared, the other ignored.`,
    );
    byKey.set(key, kept);
  }

  const badPrices = new NoteList('Unusable prices');
  const unknownLines = new NoteList('Prices for unknown lines');
  const unsorted: SupplierSummary[] = [];
  for (const [key, q] of byKey) {
    const unitPrices = new Array<string | null>(lineCount).fill(null);
    const unitValues = new Float64Array(lineCount).fill(Number.NaN);
    const lineTotalValues = new Float64Array(lineCount).fill(Number.NaN);
    const decision: SupplierDecision = q.status === 'qualified' || q.status === 'not qualified' ? q.status : 'undecided';
    const s: SupplierSummary = {
      key,
      name: q.sup_name ?? '',
      revision: q.revision_no,
      quotationDate: q.quotation_date,
      notes: q.notes,
      decision,
      eligible: decision !== 'not qualified',
      winner: input.winnerKey !== undefined && String(input.winnerKey) === key,
      documents: countDocs(q.attachments),
      unitPrices,
      unitValues,
      lineTotalValues,
      tieOrder: 0,
      linesQuoted: 0,
      coverage: new Decimal(0),
      fullCoverage: false,
      total: new Decimal(0),
    };
    let total = new Decimal(0);
    for (const d of q.detail) {
      s.documents += countDocs(d.docs);
      const li = lineIndex.get(String(d.line_id));
      if (li === undefined) {
        if (d.price !== null && d.price !== undefined && d.price !== '') {
          unknownLines.add(`${supplierLabel(s)} priced line_id ${d.line_id}, which is not on this RFQ; ignored.`);
        }
        continue;
      }
      if (d.price === null || d.price === undefined || String(d.price).trim() === '') continue;
      const price = parseDecimal(d.price);
      const line = lines[li]!;
      if (unitPrices[li] !== null) {
        // A second price for the same line replaces the first: back the first out of the total.
        if (line.qty !== undefined) total = total.sub(new Decimal(unitPrices[li]!).mul(line.qty));
        unitPrices[li] = null;
        unitValues[li] = Number.NaN;
        lineTotalValues[li] = Number.NaN;
        badPrices.add(`${supplierLabel(s)} gave line ${lineLabel(line)} more than one price; the last one is compared.`);
      }
      if (price === undefined || price.isNegative()) {
        badPrices.add(`${supplierLabel(s)}, line ${lineLabel(line)}: price "${String(d.price)}" is not a usable number; shown as no quote.`);
        continue;
      }
      unitPrices[li] = String(d.price).trim();
      unitValues[li] = price.toNumber();
      if (line.qty !== undefined) {
        const t = price.mul(line.qty);
        lineTotalValues[li] = t.toNumber();
        total = total.add(t);
      }
    }
    let quoted = 0;
    for (let i = 0; i < lineCount; i++) if (unitPrices[i] !== null) quoted++;
    s.linesQuoted = quoted;
    s.total = total;
    s.coverage = lineCount === 0 ? new Decimal(0) : new Decimal(quoted).div(lineCount);
    s.fullCoverage = lineCount > 0 && quoted === lineCount;
    unsorted.push(s);
  }

  // The tie-break order once, as an integer, so per-line sorting never compares dates and keys again.
  [...unsorted].sort(compareTie).forEach((s, i) => (s.tieOrder = i));
  const tieOrder = (a: SupplierSummary, b: SupplierSummary): number => a.tieOrder - b.tieOrder;

  // ---- ranking by total among eligible full-coverage suppliers
  const ranked = unsorted.filter((s) => s.eligible && s.fullCoverage).sort((a, b) => a.total.cmp(b.total) || tieOrder(a, b));
  assignRanks(ranked, (s) => s.total, (s, r) => (s.rankByTotal = r));
  const bestTotal = ranked[0]?.total;
  if (bestTotal !== undefined && !bestTotal.isZero()) {
    for (const s of unsorted) {
      if (s.fullCoverage) s.deviationFromBest = s.total.sub(bestTotal).div(bestTotal);
    }
  }

  // ---- column order: ranked first (by total), then eligible partial (more lines first), then not qualified
  const group = (s: SupplierSummary): number => (!s.eligible ? 2 : s.fullCoverage ? 0 : 1);
  const suppliers = [...unsorted].sort(
    (a, b) => group(a) - group(b) || b.linesQuoted - a.linesQuoted || a.total.cmp(b.total) || tieOrder(a, b),
  );
  const supplierCount = suppliers.length;
  const winnerIndex = suppliers.findIndex((s) => s.winner);

  // ---- per line statistics, ranks, best supplier, award
  const ties = new NoteList('Ties');
  const noQuote = new NoteList('Lines without any quote');
  const noEligible = new NoteList('Lines without a qualified quote');
  const winnerGaps = new NoteList('Winning quotation gaps');
  const basis: AwardBasis = winnerIndex >= 0 ? 'winning-quotation' : 'lowest-qualified-price';
  let splitTotal = new Decimal(0);
  let splitLinesCovered = 0;
  let awardedTotal = new Decimal(0);
  let awardedLines = 0;
  let estimatedSum = new Decimal(0);
  let estimatedKnown = false;
  const order: number[] = [];
  const linePrices: Array<Decimal | null> = new Array<Decimal | null>(supplierCount).fill(null);
  const lineTotal = (si: number, li: number): Decimal | undefined => {
    const qty = lines[li]!.qty;
    const p = suppliers[si]!.unitPrices[li];
    return p == null || qty === undefined ? undefined : new Decimal(p).mul(qty);
  };
  for (const line of lines) {
    const li = line.index;
    const listed = rfq.lines[li]!;
    const estTotalGiven = parseDecimal(listed.estimated_price);
    const eachPrice = parseDecimal(listed.each_price);
    const qty = line.qty;
    line.estimatedTotal = estTotalGiven;
    if (estTotalGiven !== undefined && qty !== undefined && qty !== 0) line.estimatedUnit = estTotalGiven.div(qty);
    else if (eachPrice !== undefined) line.estimatedUnit = eachPrice;
    if (estTotalGiven === undefined && eachPrice !== undefined && qty !== undefined) line.estimatedTotal = eachPrice.mul(qty);
    line.ranks = new Array<number>(supplierCount).fill(0);
    if (line.estimatedTotal !== undefined) {
      estimatedSum = estimatedSum.add(line.estimatedTotal);
      estimatedKnown = true;
    }
    order.length = 0;
    let anyQuote = false;
    let sum = new Decimal(0);
    for (let si = 0; si < supplierCount; si++) {
      const s = suppliers[si]!;
      const text = s.unitPrices[li] ?? null;
      if (text === null) {
        linePrices[si] = null;
        continue;
      }
      linePrices[si] = new Decimal(text);
      anyQuote = true;
      if (s.eligible) order.push(si);
    }
    order.sort((a, b) => linePrices[a]!.cmp(linePrices[b]!) || suppliers[a]!.tieOrder - suppliers[b]!.tieOrder);
    assignRanks(order, (si) => linePrices[si]!, (si, r) => (line.ranks[si] = r));
    line.quotes = order.length;
    if (order.length > 0) {
      for (const si of order) sum = sum.add(linePrices[si]!);
      const bestIdx = order[0]!;
      const lowest = linePrices[bestIdx]!;
      line.lowest = lowest;
      line.highest = linePrices[order[order.length - 1]!]!;
      line.mean = sum.div(order.length);
      line.best = bestIdx;
      line.tiedAtBest = [];
      for (const si of order) {
        if (!linePrices[si]!.eq(lowest)) break;
        line.tiedAtBest.push(si);
      }
      line.bestLineTotal = lineTotal(bestIdx, li);
      if (line.bestLineTotal !== undefined && line.estimatedTotal !== undefined) {
        line.savings = line.estimatedTotal.sub(line.bestLineTotal);
        if (!line.estimatedTotal.isZero()) line.savingsPct = line.savings.div(line.estimatedTotal);
      }
      splitLinesCovered++;
      if (line.bestLineTotal !== undefined) splitTotal = splitTotal.add(line.bestLineTotal);
      if (line.tiedAtBest.length > 1) {
        const tied = line.tiedAtBest;
        ties.add(
          () =>
            `Line ${lineLabel(line)}: ${tied.length} suppliers tie at unit price ${lowest.toFixed()} ` +
            `(${tied.map((si) => supplierLabel(suppliers[si]!)).join(', ')}); ` +
            `${supplierLabel(suppliers[bestIdx]!)} is shown as best (earlier quotation date, then key).`,
        );
      }
    } else if (!anyQuote) {
      noQuote.add(`Line ${lineLabel(line)}${line.product ? ` "${line.product}"` : ''} received no quote.`);
    } else {
      noEligible.add(`Line ${lineLabel(line)} was quoted only by not-qualified suppliers.`);
    }

    if (basis === 'winning-quotation') {
      const w = suppliers[winnerIndex]!;
      const p = w.unitPrices[li];
      if (p != null) {
        line.award = { supplier: winnerIndex, unitPrice: new Decimal(p), lineTotal: lineTotal(winnerIndex, li), basis };
      } else {
        line.noAwardReason = 'the winning quotation has no price for this line';
        winnerGaps.add(`Line ${lineLabel(line)}: the winning quotation ${supplierLabel(w)} has no price for it; not awarded.`);
      }
    } else if (line.best !== undefined) {
      line.award = { supplier: line.best, unitPrice: line.lowest!, lineTotal: line.bestLineTotal, basis };
    } else {
      line.noAwardReason = anyQuote ? 'quoted only by not-qualified suppliers' : 'no quote received';
    }
    if (line.award) {
      awardedLines++;
      if (line.award.lineTotal !== undefined) awardedTotal = awardedTotal.add(line.award.lineTotal);
    }
  }

  const bestSingleSupplier = ranked[0];
  const bestSingle = bestSingleSupplier
    ? { supplier: suppliers.indexOf(bestSingleSupplier), total: bestSingleSupplier.total }
    : undefined;
  const award: AwardSummary = {
    basis,
    splitTotal,
    splitLinesCovered,
    bestSingle,
    awardedTotal,
    awardedLines,
    estimatedTotal: estimatedKnown ? estimatedSum : undefined,
  };
  if (bestSingle && splitLinesCovered === lineCount) {
    award.splitSaving = bestSingle.total.sub(splitTotal);
    if (!bestSingle.total.isZero()) award.splitSavingPct = award.splitSaving.div(bestSingle.total);
  }
  if (winnerIndex >= 0) {
    const w = suppliers[winnerIndex]!;
    award.winner = { supplier: winnerIndex, total: w.total, linesQuoted: w.linesQuoted };
  }

  // ---- notes, most important first
  notes.push({
    topic: 'Prices',
    text: 'A quotation price is the UNIT price of its line; line total = unit price x qty. The estimated price of a line is its estimated total; estimated unit = estimated total / qty. Amounts are computed exactly (decimal) and shown in the RFQ currency.',
  });
  notes.push({
    topic: 'Eligibility',
    text: 'Not-qualified quotations are shown greyed and excluded from the per-line statistics (lowest, highest, mean, best), the ranks and the award. Quotations without a qualification decision yet count as eligible.',
  });
  notes.push({
    topic: 'Ranks and ties',
    text: 'Equal unit prices (or equal totals) share a rank (1, 1, 3). When several suppliers tie for the lowest price, the one with the earlier quotation date, then the lower key, is shown as best and recommended.',
  });
  notes.push({
    topic: 'Time zone',
    text: tzProblem
      ? `The configured time zone "${input.timeZone}" is unknown; dates are shown in UTC.`
      : `All dates and times are shown in ${timeZone}.`,
  });
  if (input.state === 'open') {
    notes.push({ topic: 'Status', text: 'The RFQ is still open: quotations may still arrive or change; this comparison is provisional.' });
  } else if (input.state === 'cancelled') {
    notes.push({ topic: 'Status', text: 'The RFQ was cancelled: the award recommendation is for information only.' });
  }
  if (basis === 'winning-quotation') {
    notes.push({
      topic: 'Award',
      text: `The RFQ is completed: the award follows the winning quotation ${supplierLabel(suppliers[winnerIndex]!)}.`,
    });
  } else if (input.winnerKey !== undefined) {
    notes.push({
      topic: 'Award',
      text: `The winning quotation key ${input.winnerKey} is not among the quotations received; the award shows the lowest qualified price per line instead.`,
    });
  }
  if (input.quotations.length === 0) notes.push({ topic: 'Quotations', text: 'No quotations were received for this RFQ.' });
  const invalid = input.invalidQuotations ?? [];
  const invalidList = new NoteList('Malformed quotations');
  for (const bad of invalid) {
    invalidList.add(
      `Quotation${bad.quotation_key !== undefined ? ` key ${bad.quotation_key}` : ' without a key'} could not be read and is not compared: ${bad.reason}`,
    );
  }
  invalidList.flush(notes);
  noQuote.flush(notes, (n) => `${n} of ${lineCount} lines received no quote (the cells are hatched, never 0).`);
  noEligible.flush(notes, (n) => `${n} lines were quoted only by not-qualified suppliers.`);
  ties.flush(notes, (n) => `${n} lines have a tie for the lowest price.`);
  winnerGaps.flush(notes);
  badPrices.flush(notes);
  unknownLines.flush(notes);
  duplicates.flush(notes);
  noQty.flush(notes);

  return {
    input,
    timeZone,
    suppliers,
    lines,
    winnerIndex: winnerIndex >= 0 ? winnerIndex : undefined,
    award,
    notes,
    counts: {
      ties: ties.count,
      linesWithoutQuote: noQuote.count,
      linesWithoutEligibleQuote: noEligible.count,
      invalidQuotations: invalid.length,
    },
  };
}


/**
 * The stages of a comparison, in order: lines -> quotations (one per key, prices checked) -> supplier order and
 * ranks by total -> per-line statistics. The award is a separate rule (award-rule.ts); model.ts runs them all.
 * Pure code: decimal maths only, no I/O.
 */
import { Decimal } from 'decimal.js';
import type { ListedRfq, Quotation } from '../sourcing/types.ts';
import { lineLabel, NoteList, supplierLabel } from './notes.ts';
import type {
  ComparisonInput,
  LineComparison,
  PriceBasis,
  PriceBasisWarning,
  SupplierDecision,
  SupplierSummary,
} from './types.ts';

/** Decimals kept of a unit price derived from a line total that does not divide evenly (100 / 3 = 33.333333). */
export const DERIVED_UNIT_PLACES = 6;

/**
 * Unit price and line total of one quoted price, exactly, per the basis. A unit price derived from a line total is
 * exact when the division ends, otherwise rounded half-up to DERIVED_UNIT_PLACES; the quoted line total stays exact.
 */
export function priceParts(
  basis: PriceBasis,
  quoted: Decimal,
  qty: number | undefined,
): { unit?: Decimal; total?: Decimal } {
  if (basis === 'unit') return { unit: quoted, ...(qty !== undefined ? { total: quoted.mul(qty) } : {}) };
  if (qty === undefined || qty === 0) return { total: quoted };
  const unit = quoted.div(qty);
  return {
    unit:
      unit.decimalPlaces() > DERIVED_UNIT_PLACES
        ? unit.toDecimalPlaces(DERIVED_UNIT_PLACES, Decimal.ROUND_HALF_UP)
        : unit,
    total: quoted,
  };
}

/** A per-line statistic of quoted prices as a unit price. */
function asUnit(basis: PriceBasis, quoted: Decimal, qty: number | undefined): Decimal | undefined {
  return priceParts(basis, quoted, qty).unit;
}

const keyCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Deterministic tie-break between quotations: earlier quotation date first (unknown last), then key. */
export function compareTie(
  a: Pick<SupplierSummary, 'quotationDate' | 'key'>,
  b: Pick<SupplierSummary, 'quotationDate' | 'key'>,
): number {
  const da = a.quotationDate ?? Number.POSITIVE_INFINITY;
  const db = b.quotationDate ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return keyCollator.compare(a.key, b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function parseDecimal(text: string | undefined | null): Decimal | undefined {
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

/**
 * The names of attached documents, for the buyer to read beside the prices. The interface does not show the fields
 * of a document entry: the usual name fields are tried, then the last part of a URL, then a number.
 */
export function documentNames(docs: unknown): string[] {
  const entries: unknown[] = Array.isArray(docs) ? docs : docs && typeof docs === 'object' ? Object.values(docs) : [];
  return entries.map((d, i) => {
    if (typeof d === 'string' && d.trim() !== '') return d.trim();
    if (d && typeof d === 'object') {
      const o = d as Record<string, unknown>;
      for (const k of ['name', 'file_name', 'filename', 'original_name', 'title', 'doc_name']) {
        const v = o[k];
        if (typeof v === 'string' && v.trim() !== '') return v.trim();
      }
      for (const k of ['url', 'path', 'link']) {
        const v = o[k];
        if (typeof v === 'string' && v.trim() !== '')
          return (
            v
              .trim()
              .replace(/[?#].*$/, '')
              .split('/')
              .filter(Boolean)
              .pop() ?? `document ${i + 1}`
          );
      }
    }
    return `document ${i + 1}`;
  });
}

/** Why the first of `tied` (in tie order) wins: the earlier quotation, or the lower key when the dates are equal. */
export function tieReason(suppliers: SupplierSummary[], tied: number[]): string {
  const first = suppliers[tied[0]!]!;
  const second = suppliers[tied[1]!];
  return second && first.quotationDate === second.quotationDate
    ? 'the quotation dates are equal, so the lower key wins'
    : 'its quotation is the earlier one';
}

/** Competition ranking (1, 1, 3): equal values share a rank. `values` must be sorted ascending by `value`. */
export function assignRanks<T>(sorted: T[], value: (t: T) => Decimal, set: (t: T, rank: number) => void): void {
  let rank = 0;
  let prev: Decimal | undefined;
  sorted.forEach((t, i) => {
    const v = value(t);
    if (prev === undefined || !v.eq(prev)) rank = i + 1;
    set(t, rank);
    prev = v;
  });
}

// ------------------------------------------------------------------------------------------------ 1. lines

export interface LinesStage {
  lines: LineComparison[];
  lineIndex: Map<string, number>;
  noQty: NoteList;
}

export function normaliseLines(rfq: ListedRfq): LinesStage {
  const lineIndex = new Map<string, number>();
  const noQty = new NoteList('Lines without quantity');
  const lines: LineComparison[] = rfq.lines.map((l, index) => {
    lineIndex.set(l.line_id, index);
    const qty = typeof l.qty === 'number' && Number.isFinite(l.qty) ? l.qty : undefined;
    // The estimates are computed in the per-line pass (lineStatistics), not here: a burst of Decimals that all
    // stay alive makes V8 pretenure every later Decimal into old space (measured: +100 MB peak RSS at 5,000 x 50).
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
  return { lines, lineIndex, noQty };
}

// ------------------------------------------------------------------------------------------------ 2. quotations

export interface QuotationsStage {
  /** In arrival order; orderSuppliers sorts them. */
  suppliers: SupplierSummary[];
  duplicates: NoteList;
  badPrices: NoteList;
  unknownLines: NoteList;
}

/** One quotation per key (the highest revision, then the later date, wins). */
function latestPerKey(quotations: Quotation[], duplicates: NoteList): Map<string, Quotation> {
  const byKey = new Map<string, Quotation>();
  for (const q of quotations) {
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
  return byKey;
}

export function normaliseQuotations(input: ComparisonInput, stage: LinesStage): QuotationsStage {
  const { lines, lineIndex } = stage;
  const basis = input.priceBasis ?? 'unit';
  const lineCount = lines.length;
  const duplicates = new NoteList('Duplicate quotations');
  const badPrices = new NoteList('Unusable prices');
  const unknownLines = new NoteList('Prices for unknown lines');
  const suppliers: SupplierSummary[] = [];
  for (const [key, q] of latestPerKey(input.quotations, duplicates)) {
    const quoted = new Array<string | null>(lineCount).fill(null);
    const unitValues = new Float64Array(lineCount).fill(Number.NaN);
    const lineTotalValues = new Float64Array(lineCount).fill(Number.NaN);
    const decision: SupplierDecision =
      q.status === 'qualified' || q.status === 'not qualified' ? q.status : 'undecided';
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
      attachmentNames: documentNames(q.attachments),
      quoted,
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
      if (li !== undefined && countDocs(d.docs) > 0) (s.lineDocuments ??= new Map()).set(li, documentNames(d.docs));
      if (li === undefined) {
        if (d.price !== null && d.price !== undefined && d.price !== '') {
          unknownLines.add(`${supplierLabel(s)} priced line_id ${d.line_id}, which is not on this RFQ; ignored.`);
        }
        continue;
      }
      if (d.price === null || d.price === undefined || String(d.price).trim() === '') continue;
      const price = parseDecimal(d.price);
      const line = lines[li]!;
      if (quoted[li] !== null) {
        // A second price for the same line replaces the first: back the first out of the total.
        const first = priceParts(basis, new Decimal(quoted[li]!), line.qty).total;
        if (first !== undefined) total = total.sub(first);
        quoted[li] = null;
        unitValues[li] = Number.NaN;
        lineTotalValues[li] = Number.NaN;
        badPrices.add(
          `${supplierLabel(s)} gave line ${lineLabel(line)} more than one price; the last one is compared.`,
        );
      }
      if (price === undefined || price.isNegative()) {
        badPrices.add(
          `${supplierLabel(s)}, line ${lineLabel(line)}: price "${String(d.price)}" is not a usable number; shown as no quote.`,
        );
        continue;
      }
      quoted[li] = String(d.price).trim();
      const parts = priceParts(basis, price, line.qty);
      if (parts.unit !== undefined) unitValues[li] = parts.unit.toNumber();
      if (parts.total !== undefined) {
        lineTotalValues[li] = parts.total.toNumber();
        total = total.add(parts.total);
      }
    }
    let linesQuoted = 0;
    for (let i = 0; i < lineCount; i++) if (quoted[i] !== null) linesQuoted++;
    s.linesQuoted = linesQuoted;
    s.total = total;
    s.coverage = lineCount === 0 ? new Decimal(0) : new Decimal(linesQuoted).div(lineCount);
    s.fullCoverage = lineCount > 0 && linesQuoted === lineCount;
    suppliers.push(s);
  }
  return { suppliers, duplicates, badPrices, unknownLines };
}

// ------------------------------------------------------------------------------------------------ 3. order

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
    (s) => s.total,
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

// ------------------------------------------------------------------------------------------------ 4. per line

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

/** Estimates, ranks, lowest/highest/mean, the best supplier and ties of every line; the split-award totals. */
export function lineStatistics(
  rfq: ListedRfq,
  lines: LineComparison[],
  suppliers: SupplierSummary[],
  basis: PriceBasis,
  erpPrices?: Record<string, [string, string]>,
): LineStatsStage {
  let erpEstimated = 0;
  const supplierCount = suppliers.length;
  const ties = new NoteList('Ties');
  const noQuote = new NoteList('Lines without any quote');
  const noEligible = new NoteList('Lines without a qualified quote');
  let splitTotal = new Decimal(0);
  let splitLinesCovered = 0;
  let estimatedSum = new Decimal(0);
  let estimatedKnown = false;
  const order: number[] = [];
  const linePrices: Array<Decimal | null> = new Array<Decimal | null>(supplierCount).fill(null);
  for (const line of lines) {
    const li = line.index;
    const listed = rfq.lines[li]!;
    const estTotalGiven = parseDecimal(listed.estimated_price);
    const eachPrice = parseDecimal(listed.each_price);
    const qty = line.qty;
    line.estimatedTotal = estTotalGiven;
    if (estTotalGiven !== undefined && qty !== undefined && qty !== 0) line.estimatedUnit = estTotalGiven.div(qty);
    else if (eachPrice !== undefined) line.estimatedUnit = eachPrice;
    if (estTotalGiven === undefined && eachPrice !== undefined && qty !== undefined)
      line.estimatedTotal = eachPrice.mul(qty);
    if (erpPrices !== undefined && erpEstimate(line, erpPrices)) erpEstimated++;
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
      const text = s.quoted[li] ?? null;
      if (text === null) {
        linePrices[si] = null;
        continue;
      }
      linePrices[si] = new Decimal(text);
      anyQuote = true;
      if (s.eligible) order.push(si);
    }
    line.anyQuote = anyQuote;
    order.sort((a, b) => linePrices[a]!.cmp(linePrices[b]!) || suppliers[a]!.tieOrder - suppliers[b]!.tieOrder);
    assignRanks(
      order,
      (si) => linePrices[si]!,
      (si, r) => (line.ranks[si] = r),
    );
    line.quotes = order.length;
    if (order.length > 0) {
      // Within a line every quote has the same qty: ranking the quoted prices ranks unit prices and totals alike.
      for (const si of order) sum = sum.add(linePrices[si]!);
      const bestIdx = order[0]!;
      const lowest = linePrices[bestIdx]!;
      line.lowest = asUnit(basis, lowest, qty);
      line.highest = asUnit(basis, linePrices[order[order.length - 1]!]!, qty);
      line.mean = asUnit(basis, sum.div(order.length), qty);
      line.best = bestIdx;
      line.tiedAtBest = [];
      for (const si of order) {
        if (!linePrices[si]!.eq(lowest)) break;
        line.tiedAtBest.push(si);
      }
      line.bestLineTotal = supplierLinePrice(basis, suppliers, lines, bestIdx, li).total;
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
            `Line ${lineLabel(line)}: ${tied.length} suppliers tie at ${basis === 'unit' ? 'unit price' : 'line total'} ${lowest.toFixed()} ` +
            `(${tied.map((si) => supplierLabel(suppliers[si]!)).join(', ')}); ` +
            `${supplierLabel(suppliers[bestIdx]!)} is shown as best: ${tieReason(suppliers, tied)}.`,
        );
      }
    } else if (!anyQuote) {
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

// ------------------------------------------------------------------------------------------------ 5. basis check

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

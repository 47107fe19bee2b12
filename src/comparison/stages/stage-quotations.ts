/**
 * Stage 2 of a comparison (index.ts): one quotation per key, its prices checked and split into unit prices and line
 * totals, its total and coverage; the duplicates, unusable prices and prices for unknown lines noted.
 */
import { Decimal } from 'decimal.js';
import type { Quotation } from '../../sourcing/index.ts';
import { lineLabel, NoteList, supplierLabel } from '../notes.ts';
import { ExactSum, PlainDecimal } from './plain-decimal.ts';
import { parseDecimal, priceParts, toDouble } from './price-parts.ts';
import { countDocs, documentNames } from './quotation-documents.ts';
import type { LinesStage } from './stage-lines.ts';
import type { ComparisonInput, LineComparison, SupplierDecision, SupplierSummary } from '../types.ts';

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

/** A supplier's summary before its prices are read: no line quoted, totals zero. */
function newSummary(key: string, q: Quotation, input: ComparisonInput, lineCount: number): SupplierSummary {
  const decision: SupplierDecision = q.status === 'qualified' || q.status === 'not qualified' ? q.status : 'undecided';
  return {
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
    quoted: new Array<string | null>(lineCount).fill(null),
    unitValues: new Float64Array(lineCount).fill(Number.NaN),
    lineTotalValues: new Float64Array(lineCount).fill(Number.NaN),
    tieOrder: 0,
    linesQuoted: 0,
    coverage: new Decimal(0),
    fullCoverage: false,
    total: new Decimal(0),
  };
}

export function normaliseQuotations(input: ComparisonInput, stage: LinesStage): QuotationsStage {
  const { lines, lineIndex } = stage;
  const basis = input.priceBasis ?? 'unit';
  const lineCount = lines.length;
  const duplicates = new NoteList('Duplicate quotations');
  const badPrices = new NoteList('Unusable prices');
  const unknownLines = new NoteList('Prices for unknown lines');
  const suppliers: SupplierSummary[] = [];
  const plain = new PlainDecimal();
  for (const [key, q] of latestPerKey(input.quotations, duplicates)) {
    const s = newSummary(key, q, input, lineCount);
    const { quoted, unitValues, lineTotalValues } = s;
    // The supplier's total: plain prices summed exactly as integers (plain-decimal.ts), any other through decimal.js.
    const exact = new ExactSum();
    let decimalTotal = new Decimal(0);
    /** Adds (or takes away) the line total of a usable price to the supplier's total; returns its double. */
    const addLineTotal = (text: string, price: Decimal | undefined, line: LineComparison, sign: 1 | -1): number => {
      if (basis === 'unit' && line.qty === undefined) return Number.NaN;
      if (basis === 'unit' && plain.read(text)) {
        const double = exact.addProduct(plain, line.qty!, sign);
        if (!Number.isNaN(double)) return double;
      }
      const quotedPrice = price ?? new Decimal(text);
      const lineTotal = priceParts(basis, quotedPrice, line.qty).total;
      if (lineTotal === undefined) return Number.NaN;
      decimalTotal = sign === 1 ? decimalTotal.add(lineTotal) : decimalTotal.sub(lineTotal);
      return lineTotal === quotedPrice ? toDouble(text, lineTotal) : lineTotal.toNumber();
    };
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
      if (d.price === null || d.price === undefined) continue;
      const text = String(d.price).trim();
      if (text === '') continue;
      const line = lines[li]!;
      if (quoted[li] !== null) {
        // A second price for the same line replaces the first: back the first out of the total.
        addLineTotal(quoted[li]!, undefined, line, -1);
        quoted[li] = null;
        unitValues[li] = Number.NaN;
        lineTotalValues[li] = Number.NaN;
        badPrices.add(
          `${supplierLabel(s)} gave line ${lineLabel(line)} more than one price; the last one is compared.`,
        );
      }
      // A plain unit price needs no decimal.js: it is a usable number, its double is exact.
      const isPlain = basis === 'unit' && plain.read(text);
      const price = isPlain ? undefined : parseDecimal(text);
      if (!isPlain && (price === undefined || price.isNegative())) {
        badPrices.add(
          `${supplierLabel(s)}, line ${lineLabel(line)}: price "${String(d.price)}" is not a usable number; shown as no quote.`,
        );
        continue;
      }
      quoted[li] = text;
      if (isPlain) unitValues[li] = plain.double();
      else {
        const unit = priceParts(basis, price!, line.qty).unit;
        // The quoted price itself (a unit price) needs no decimal.js to become a double.
        if (unit !== undefined) unitValues[li] = unit === price ? toDouble(text, price) : unit.toNumber();
      }
      lineTotalValues[li] = addLineTotal(text, price, line, 1);
    }
    let linesQuoted = 0;
    for (let i = 0; i < lineCount; i++) if (quoted[i] !== null) linesQuoted++;
    s.linesQuoted = linesQuoted;
    s.total = exact.total(decimalTotal);
    s.coverage = lineCount === 0 ? new Decimal(0) : new Decimal(linesQuoted).div(lineCount);
    s.fullCoverage = lineCount > 0 && linesQuoted === lineCount;
    suppliers.push(s);
  }
  return { suppliers, duplicates, badPrices, unknownLines };
}

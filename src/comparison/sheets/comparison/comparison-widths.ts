/**
 * The Comparison sheet's column widths, from the widest value each column shows as it is formatted and styled
 * (../text-width.ts): every amount fits its column whole (a number never wraps: too narrow, it prints as `###`), and
 * text is capped and wraps. Also each column's fold priority for a one-page print (../print-layout.ts).
 */
import type { Decimal } from 'decimal.js';
import { COMPARISON_COLS, SUPPLIER_PARTS } from './comparison-layout.ts';
import type { PrintColumn } from '../print-layout.ts';
import { formats } from '../styles.ts';
import { columnWidthFor, numberWidth } from '../text-width.ts';
import type { ComparisonModel } from '../../types.ts';

/** Caps of text columns (wider text wraps). */
const CAP = { externalId: 16, product: 30, specification: 22, bestSupplier: 24, lastSupplier: 34 } as const;
/** An indent of 1 (text beside a number column) takes about two digits' width (10 px). */
const INDENT = 2;

/** Widest bold word of a column header: a header wraps between words, never inside one ("Ran / k"). */
function headerWidth(text: string): number {
  return Math.max(...text.split(/\s+/).map((w) => columnWidthFor(w, { bold: true })));
}

/** Width of the widest of `values` (doubles) in `numFmt`; `bold`: some of them are bold. */
function widest(values: Iterable<number>, numFmt: string, bold = false, extraDecimals = false): number {
  let max = 0;
  let min = 0;
  let fractional = false;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v > max) max = v;
    if (v < min) min = v;
    if (extraDecimals && !fractional && Math.abs(Math.round(v * 100) - v * 100) > 1e-6) fractional = true;
  }
  // Unit prices show up to two more decimals: the widest is the largest with all four.
  const fmt = fractional ? numFmt.replace('0.00##', '0.0000') : numFmt;
  return Math.max(numberWidth(max, fmt, { bold }), min < 0 ? numberWidth(min, fmt, { bold }) : 0);
}

const dec = (d: Decimal | undefined): number => (d === undefined ? Number.NaN : d.toNumber());
const textW = (s: string | undefined, bold = false): number => (s ? columnWidthFor(s, { bold }) : 0);

/** Fold priorities for a one-page print: higher numbers are folded first; 0 never. */
const FOLD = {
  estUnit: 5,
  highest: 5,
  mean: 5,
  savings: 4,
  savingsPct: 4,
  pctOfMean: 4,
  rank: 4,
  quotes: 3,
  lowest: 3,
  lineTotal: 2,
  /** The best supplier is also the green cell of its group: folded last, and it stops long names wrapping lines. */
  bestSupplier: 1,
  bestLineTotal: 1,
} as const;

/** The column headers of the line columns (comparison-line-rows.ts writes them). */
const HEADERS: Array<[number, string]> = [
  [COMPARISON_COLS.externalId, 'External ID'],
  [COMPARISON_COLS.product, 'Product'],
  [COMPARISON_COLS.specification, 'Specification'],
  [COMPARISON_COLS.uom, 'UoM'],
  [COMPARISON_COLS.qty, 'Qty'],
  [COMPARISON_COLS.estUnit, 'Est. unit price'],
  [COMPARISON_COLS.estTotal, 'Est. total'],
  [COMPARISON_COLS.quotes, 'Quotes'],
  [COMPARISON_COLS.lowest, 'Lowest unit'],
  [COMPARISON_COLS.highest, 'Highest unit'],
  [COMPARISON_COLS.mean, 'Mean unit'],
  [COMPARISON_COLS.bestSupplier, 'Best supplier'],
  [COMPARISON_COLS.bestLineTotal, 'Best line total'],
  [COMPARISON_COLS.savings, 'Savings vs est.'],
  [COMPARISON_COLS.savingsPct, 'Savings %'],
  [COMPARISON_COLS.lastPrice, 'Last price paid'],
  [COMPARISON_COLS.lastDate, 'Awarded on'],
  [COMPARISON_COLS.lastSupplier, 'Last supplier'],
];

/** Fold priorities of the line columns that may be folded. */
const LINE_FOLDS: Record<number, number> = {
  [COMPARISON_COLS.estUnit]: FOLD.estUnit,
  [COMPARISON_COLS.highest]: FOLD.highest,
  [COMPARISON_COLS.mean]: FOLD.mean,
  [COMPARISON_COLS.savings]: FOLD.savings,
  [COMPARISON_COLS.savingsPct]: FOLD.savingsPct,
  [COMPARISON_COLS.quotes]: FOLD.quotes,
  [COMPARISON_COLS.lowest]: FOLD.lowest,
  [COMPARISON_COLS.bestSupplier]: FOLD.bestSupplier,
  [COMPARISON_COLS.bestLineTotal]: FOLD.bestLineTotal,
};

export function comparisonColumns(model: ComparisonModel): PrintColumn[] {
  const { lines, suppliers, award } = model;
  const FMT = formats(model.currency);
  const C = COMPARISON_COLS;
  const w = new Array<number>(C.firstSupplier - 1).fill(0);
  const fit = (col: number, width: number): void => {
    w[col - 1] = Math.max(w[col - 1]!, width);
  };
  for (const [col, text] of HEADERS) fit(col, headerWidth(text));
  for (const l of lines) {
    fit(C.externalId, Math.min(CAP.externalId, textW(l.externalId)));
    fit(C.product, Math.min(CAP.product, textW(l.product)));
    fit(C.specification, Math.min(CAP.specification, textW(l.specification)));
    fit(C.uom, textW(l.uom));
    if (l.best !== undefined) {
      const tie = l.tiedAtBest.length > 1 ? ` (tie ×${l.tiedAtBest.length})` : '';
      fit(C.bestSupplier, Math.min(CAP.bestSupplier, textW(`${suppliers[l.best]!.name}${tie}`) + INDENT));
    } else fit(C.bestSupplier, Math.min(CAP.bestSupplier, textW('only not-qualified quotes') + INDENT));
    const last = model.input.lastAwards?.[l.lineId];
    if (last) fit(C.lastSupplier, Math.min(CAP.lastSupplier, textW(last.supplier) + INDENT));
  }
  fit(
    C.qty,
    widest(
      lines.map((l) => l.qty ?? Number.NaN),
      FMT.qty,
    ),
  );
  fit(
    C.estUnit,
    widest(
      lines.map((l) => dec(l.estimatedUnit)),
      FMT.unit,
      false,
      true,
    ),
  );
  fit(
    C.estTotal,
    widest(
      lines.map((l) => dec(l.estimatedTotal)),
      FMT.money,
    ),
  );
  fit(C.quotes, widest([lines.length > 0 ? suppliers.length : 0], '0'));
  for (const col of [C.lowest, C.highest, C.mean])
    fit(
      col,
      widest(
        lines.flatMap((l) => [dec(l.lowest), dec(l.highest)]),
        FMT.unit,
        false,
        true,
      ),
    );
  fit(
    C.bestLineTotal,
    widest(
      lines.map((l) => dec(l.bestLineTotal)),
      FMT.money,
    ),
  );
  fit(
    C.savings,
    widest(
      lines.map((l) => dec(l.savings)),
      FMT.money,
    ),
  );
  fit(C.savingsPct, widest([-9.999, 9.999], FMT.deviation));
  const lastPrices = lines.map((l) => Number(model.input.lastAwards?.[l.lineId]?.unitPrice ?? Number.NaN));
  fit(
    C.lastPrice,
    Math.max(widest(lastPrices, FMT.unit, false, true), model.input.lastAwards ? textW('no earlier award') : 0),
  );
  fit(C.lastDate, textW('2026-12-31'));
  // The header block's dates (RFQ date, due date, generated) sit in column B, over the products: a date is a number
  // to a spreadsheet, and one wider than its column prints as `###` (comparison-header.ts).
  fit(C.product, textW('2026-12-31 23:59'));
  // The award summary's amounts are bold in column C, its labels in A (overflowing into B).
  const amounts = [
    award.splitTotal,
    award.bestSingle?.total,
    award.splitSaving,
    award.estimatedTotal,
    award.winner?.total,
  ];
  fit(C.specification, widest(amounts.map(dec), FMT.money, true));
  const columns: PrintColumn[] = w.map((width, i) => ({
    width: Math.ceil(width * 10) / 10,
    fold: LINE_FOLDS[i + 1] ?? 0,
  }));
  for (const s of suppliers) columns.push(...supplierColumns(model, s));
  return columns;
}

/** The five columns of a supplier group. */
function supplierColumns(model: ComparisonModel, s: ComparisonModel['suppliers'][number]): PrintColumn[] {
  const FMT = formats(model.currency);
  const P = SUPPLIER_PARTS;
  const w: number[] = [];
  // Bold: the line's lowest price is bold (on green).
  w[P.unit] = Math.max(headerWidth('Unit price'), widest(s.unitValues, FMT.unit, true, true));
  w[P.lineTotal] = Math.max(headerWidth('Line total'), widest(s.lineTotalValues, FMT.money, true));
  w[P.pctOfMean] = Math.max(headerWidth('% of mean'), numberWidth(9.99, FMT.pctOfMean, { bold: true }));
  w[P.rank] = Math.max(headerWidth('Rank'), numberWidth(Math.max(1, model.suppliers.length), '0', { bold: true }));
  w[P.vsLast] = Math.max(headerWidth('vs last'), numberWidth(-0.999, FMT.deviation), numberWidth(9.999, FMT.deviation));
  // What the group header shows over the unit price and vs last (the columns a one-page print keeps): the total
  // (bold), and the name over two lines.
  const shown = w[P.unit]! + w[P.vsLast]!;
  const need = Math.max(
    numberWidth(s.total.toNumber(), FMT.money, { bold: true }),
    columnWidthFor(s.name, { bold: true }) / 2 + 1,
  );
  if (need > shown) w[P.unit] = Math.min(w[P.unit]! + need - shown, 40);
  const fold = [0, FOLD.lineTotal, FOLD.pctOfMean, FOLD.rank, 0];
  return w.map((width, i) => ({ width: Math.ceil(width * 10) / 10, fold: fold[i]! }));
}

/**
 * The line rows of the Comparison sheet: their column headers, then per RFQ line its details, its statistics
 * (quotes, lowest, highest, mean, best supplier, savings) and each supplier group's cells.
 */
import type { Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { COMPARISON_COLS, COMPARISON_ROWS, SUPPLIER_PARTS, supplierColumn } from './comparison-layout.ts';
import { excelDateInZone } from '../dates.ts';
import { num, put, t, type RowCells } from '../sheet-common.ts';
import type { ComparisonModel, LineComparison } from '../../types.ts';
import { stylesFor, type Styles, type SupplierKind } from '../styles.ts';

export function writeColumnHeaders(ws: Worksheet, model: ComparisonModel, { S, COL_HEADER_GROUP_START }: Styles): void {
  const C = COMPARISON_COLS;
  const colHeaders: Array<[number, string, Partial<Style>]> = [
    [C.externalId, 'External ID', S.colHeader],
    [C.product, 'Product', S.colHeader],
    [C.specification, 'Specification', S.colHeader],
    [C.uom, 'UoM', S.colHeader],
    [C.qty, 'Qty', S.colHeader],
    [C.estUnit, 'Est. unit price', S.colHeader],
    [C.estTotal, 'Est. total', S.colHeader],
    [C.quotes, 'Quotes', S.statsHeader],
    [C.lowest, 'Lowest unit', S.statsHeader],
    [C.highest, 'Highest unit', S.statsHeader],
    [C.mean, 'Mean unit', S.statsHeader],
    [C.bestSupplier, 'Best supplier', S.statsHeader],
    [C.bestLineTotal, 'Best line total', S.statsHeader],
    [C.savings, 'Savings vs est.', S.statsHeader],
    [C.savingsPct, 'Savings %', S.statsHeader],
    [C.lastPrice, 'Last price paid', S.lastHeader],
    [C.lastDate, 'Awarded on', S.lastHeader],
    [C.lastSupplier, 'Last supplier', S.lastHeader],
  ];
  const hdr = ws.getRow(COMPARISON_ROWS.columnHeader);
  hdr.height = 32;
  for (const [col, text, style] of colHeaders) put(hdr, col, text, style);
  const P = SUPPLIER_PARTS;
  model.suppliers.forEach((_s, si) => {
    const c0 = supplierColumn(si);
    put(hdr, c0 + P.unit, 'Unit price', COL_HEADER_GROUP_START);
    put(hdr, c0 + P.lineTotal, 'Line total', S.colHeader);
    put(hdr, c0 + P.pctOfMean, '% of mean', S.colHeader);
    put(hdr, c0 + P.rank, 'Rank', S.colHeader);
    put(hdr, c0 + P.vsLast, 'vs last', S.colHeader);
  });
}

export function writeSupplierCells(
  row: RowCells,
  line: LineComparison,
  model: ComparisonModel,
  { SUPPLIER_CELL }: Styles,
): void {
  const P = SUPPLIER_PARTS;
  const li = line.index;
  // A display ratio: doubles are exact enough for a whole percent.
  const mean = line.mean && !line.mean.isZero() ? line.mean.toNumber() : Number.NaN;
  const { suppliers } = model;
  const last = lastUnitPrice(model, line);
  for (let si = 0; si < suppliers.length; si++) {
    const s = suppliers[si]!;
    const c0 = supplierColumn(si);
    const price = s.unitValues[li]!;
    const missing = s.quoted[li] == null;
    const rank = line.ranks[si]!;
    let kind: SupplierKind;
    if (missing) kind = s.eligible ? 'missing' : 'nqMissing';
    else if (!s.eligible) kind = 'nq';
    else if (rank === 1) kind = 'lowest';
    else kind = 'normal';
    row.put(c0 + P.unit, Number.isNaN(price) ? null : price, SUPPLIER_CELL.unit[kind]);
    const docs = s.lineDocuments?.get(li);
    if (docs) row.note(c0 + P.unit, t(`Documents from ${s.name || `key ${s.key}`}: ${docs.join(', ')}`));
    const total = s.lineTotalValues[li]!;
    row.put(c0 + P.lineTotal, Number.isNaN(total) ? null : total, SUPPLIER_CELL.total[kind]);
    const ofMean = price / mean;
    row.put(c0 + P.pctOfMean, Number.isFinite(ofMean) ? ofMean : null, SUPPLIER_CELL.pctOfMean[kind]);
    row.put(c0 + P.rank, rank > 0 ? rank : null, SUPPLIER_CELL.rank[kind]);
    // A display ratio, as % of mean: the difference from the last price paid (+5.0% = dearer).
    const vsLast = last !== undefined && !Number.isNaN(price) ? price / last - 1 : Number.NaN;
    row.put(c0 + P.vsLast, Number.isFinite(vsLast) ? vsLast : null, SUPPLIER_CELL.vsLast[kind]);
  }
}

/** The last unit price paid for the line's product in the comparison's currency (a double, for display), if any. */
export function lastUnitPrice(model: ComparisonModel, line: LineComparison): number | undefined {
  const last = model.input.lastAwards?.[line.lineId];
  if (!last || (last.currency ?? '') !== (model.currency ?? '')) return undefined;
  const v = Number(last.unitPrice);
  return v > 0 ? v : undefined;
}

/** The last price paid, its date and supplier; "no earlier award" when the product has none. */
function writeLastAward(row: RowCells, line: LineComparison, model: ComparisonModel, S: Styles['S']): void {
  const C = COMPARISON_COLS;
  if (!model.input.lastAwards) return;
  const last = model.input.lastAwards[line.lineId];
  if (!last) {
    row.put(C.lastPrice, 'no earlier award', S.noEarlier);
    row.put(C.lastDate, null, S.lastText);
    row.put(C.lastSupplier, null, S.lastText);
    return;
  }
  const sameCurrency = (last.currency ?? '') === (model.currency ?? '');
  row.put(
    C.lastPrice,
    sameCurrency ? Number(last.unitPrice) : t(`${last.unitPrice} ${last.currency ?? ''}`),
    S.lastUnit,
  );
  row.put(C.lastDate, excelDateInZone(last.at, model.timeZone), S.lastDate);
  row.put(C.lastSupplier, t(last.supplier), S.lastText);
}

/**
 * Decimals of a line's mean: as many as its most precise eligible quote has (2 to 4), so the mean of 404.46 and
 * 417.39 reads 410.09, not 410.0933, while sub-cent unit prices (0.0125) keep theirs.
 */
function meanPlaces(model: ComparisonModel, line: LineComparison): number {
  let places = 2;
  if (model.priceBasis === 'line_total') {
    // Unit prices derived from totals: as many decimals as the lowest and highest need, up to 4.
    for (const d of [line.lowest, line.highest]) if (d) places = Math.max(places, Math.min(4, d.decimalPlaces()));
    return places;
  }
  for (const s of model.suppliers) {
    const text = s.eligible ? s.quoted[line.index] : null;
    if (text == null) continue;
    const dot = text.indexOf('.');
    if (dot >= 0) places = Math.max(places, Math.min(4, text.length - dot - 1));
  }
  return places;
}

export function writeLineInfo(row: RowCells, line: LineComparison, model: ComparisonModel): void {
  const { S } = stylesFor(model.currency);
  const C = COMPARISON_COLS;
  row.put(C.externalId, t(line.externalId), S.textWrap);
  row.put(C.product, t(line.product), S.textWrap);
  row.put(C.specification, t(line.specification), S.textWrap);
  row.put(C.uom, t(line.uom), S.center);
  row.put(C.qty, line.qty ?? null, S.qty);
  row.put(C.estUnit, num(line.estimatedUnit), S.unit);
  row.put(C.estTotal, num(line.estimatedTotal), S.money);
  row.put(C.quotes, line.quotes, S.statsInt);
  row.put(C.lowest, num(line.lowest), S.statsUnit);
  row.put(C.highest, num(line.highest), S.statsUnit);
  row.put(C.mean, num(line.mean?.toDecimalPlaces(meanPlaces(model, line), Decimal.ROUND_HALF_UP)), S.statsUnit);
  if (line.best !== undefined) {
    const best = model.suppliers[line.best]!;
    const tie = line.tiedAtBest.length > 1 ? ` (tie ×${line.tiedAtBest.length})` : '';
    row.put(C.bestSupplier, t(`${best.name || `key ${best.key}`}${tie}`), S.statsText);
  } else {
    row.put(
      C.bestSupplier,
      model.suppliers.every((s) => s.quoted[line.index] == null) ? 'no quote' : 'only not-qualified quotes',
      S.statsNoQuote,
    );
  }
  row.put(C.bestLineTotal, num(line.bestLineTotal), S.statsMoney);
  row.put(C.savings, num(line.savings), S.statsMoney);
  row.put(C.savingsPct, num(line.savingsPct?.toDecimalPlaces(6)), S.statsPct);
  writeLastAward(row, line, model, S);
}

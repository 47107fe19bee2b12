/**
 * The line rows of the Comparison sheet: their column headers, then per RFQ line its details, its statistics
 * (quotes, lowest, highest, mean, best supplier, savings) and each supplier group's cells.
 */
import type { Row, Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { COMPARISON_COLS, COMPARISON_ROWS, SUPPLIER_PARTS, supplierColumn } from './comparison-layout.ts';
import { excelDateInZone } from '../dates.ts';
import { num, put, t } from '../sheet-common.ts';
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
  row: Row,
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
    const unitCell = put(row, c0 + P.unit, Number.isNaN(price) ? null : price, SUPPLIER_CELL.unit[kind]);
    const docs = s.lineDocuments?.get(li);
    if (docs) unitCell.note = t(`Documents from ${s.name || `key ${s.key}`}: ${docs.join(', ')}`);
    const total = s.lineTotalValues[li]!;
    put(row, c0 + P.lineTotal, Number.isNaN(total) ? null : total, SUPPLIER_CELL.total[kind]);
    const ofMean = price / mean;
    put(row, c0 + P.pctOfMean, Number.isFinite(ofMean) ? ofMean : null, SUPPLIER_CELL.pctOfMean[kind]);
    put(row, c0 + P.rank, rank > 0 ? rank : null, SUPPLIER_CELL.rank[kind]);
    // A display ratio, as % of mean: the difference from the last price paid (+5.0% = dearer).
    const vsLast = last !== undefined && !Number.isNaN(price) ? price / last - 1 : Number.NaN;
    put(row, c0 + P.vsLast, Number.isFinite(vsLast) ? vsLast : null, SUPPLIER_CELL.vsLast[kind]);
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
function writeLastAward(row: Row, line: LineComparison, model: ComparisonModel, S: Styles['S']): void {
  const C = COMPARISON_COLS;
  if (!model.input.lastAwards) return;
  const last = model.input.lastAwards[line.lineId];
  if (!last) {
    put(row, C.lastPrice, 'no earlier award', S.noEarlier);
    put(row, C.lastDate, null, S.lastText);
    put(row, C.lastSupplier, null, S.lastText);
    return;
  }
  const sameCurrency = (last.currency ?? '') === (model.currency ?? '');
  put(
    row,
    C.lastPrice,
    sameCurrency ? Number(last.unitPrice) : t(`${last.unitPrice} ${last.currency ?? ''}`),
    S.lastUnit,
  );
  put(row, C.lastDate, excelDateInZone(last.at, model.timeZone), S.lastDate);
  put(row, C.lastSupplier, t(last.supplier), S.lastText);
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

export function writeLineInfo(row: Row, line: LineComparison, model: ComparisonModel): void {
  const { S } = stylesFor(model.currency);
  const C = COMPARISON_COLS;
  put(row, C.externalId, t(line.externalId), S.textWrap);
  put(row, C.product, t(line.product), S.textWrap);
  put(row, C.specification, t(line.specification), S.textWrap);
  put(row, C.uom, t(line.uom), S.center);
  put(row, C.qty, line.qty ?? null, S.qty);
  put(row, C.estUnit, num(line.estimatedUnit), S.unit);
  put(row, C.estTotal, num(line.estimatedTotal), S.money);
  put(row, C.quotes, line.quotes, S.statsInt);
  put(row, C.lowest, num(line.lowest), S.statsUnit);
  put(row, C.highest, num(line.highest), S.statsUnit);
  put(row, C.mean, num(line.mean?.toDecimalPlaces(meanPlaces(model, line), Decimal.ROUND_HALF_UP)), S.statsUnit);
  if (line.best !== undefined) {
    const best = model.suppliers[line.best]!;
    const tie = line.tiedAtBest.length > 1 ? ` (tie ×${line.tiedAtBest.length})` : '';
    put(row, C.bestSupplier, t(`${best.name || `key ${best.key}`}${tie}`), S.statsText);
  } else {
    put(
      row,
      C.bestSupplier,
      model.suppliers.every((s) => s.quoted[line.index] == null) ? 'no quote' : 'only not-qualified quotes',
      S.statsNoQuote,
    );
  }
  put(row, C.bestLineTotal, num(line.bestLineTotal), S.statsMoney);
  put(row, C.savings, num(line.savings), S.statsMoney);
  put(row, C.savingsPct, num(line.savingsPct?.toDecimalPlaces(6)), S.statsPct);
  writeLastAward(row, line, model, S);
}

/**
 * The Comparison sheet: one row per RFQ line, one column group per quotation (unit price, line total, rank), the
 * line statistics between them, and above them the supplier summaries and the award's bottom line.
 */
import ExcelJS from 'exceljs';
import type { Row, Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { excelDateInZone, zoneOffsetLabel } from './dates.ts';
import { basisLabel } from './award-sheet.ts';
import { basisHeader, clamp, colLetter, decisionLabel, headerKind, moneyWidth, num, numberWidth, pctText, put, rfqHeading, ROWS_PER_YIELD, SHEETS, stateLabel, t, textWidth, yieldToLoop, type Value } from './sheet-common.ts';
import type { ComparisonModel, LineComparison } from './types.ts';
import { stylesFor, type SupplierHeaderKind, type SupplierKind } from './styles.ts';

/** Row numbers of the Comparison sheet's header block. */
export const COMPARISON_ROWS = {
  title: 1,
  legend: 2,
  metaFirst: 3,
  supplierName: 8,
  supplierInfo: 9,
  total: 10,
  coverage: 11,
  rankByTotal: 12,
  deviation: 13,
  columnHeader: 14,
  firstLine: 15,
} as const;

/** Column numbers of the Comparison sheet (1-based); supplier s occupies firstSupplier + 3s .. + 3s + 2. */
export const COMPARISON_COLS = {
  externalId: 1,
  product: 2,
  specification: 3,
  uom: 4,
  qty: 5,
  estUnit: 6,
  estTotal: 7,
  quotes: 8,
  lowest: 9,
  highest: 10,
  mean: 11,
  bestSupplier: 12,
  bestLineTotal: 13,
  savings: 14,
  savingsPct: 15,
  firstSupplier: 16,
} as const;

export async function writeComparisonSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): Promise<void> {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const { suppliers, lines, timeZone, input } = model;
  const R = COMPARISON_ROWS;
  const C = COMPARISON_COLS;
  const lastCol = C.firstSupplier + suppliers.length * 3 - 1;
  const lastDataCol = Math.max(lastCol, C.savingsPct);
  const lastRow = R.columnHeader + lines.length;
  const { rfq } = input;
  const date = (ms: number | undefined): Date | null => (ms === undefined ? null : excelDateInZone(ms, timeZone));

  const ws = wb.addWorksheet(SHEETS.comparison, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: R.columnHeader, activeCell: `C${R.firstLine}`, showGridLines: true }],
    pageSetup: {
      orientation: 'landscape',
      paperSize: 9, // A4
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: `${R.supplierName}:${R.columnHeader}`,
      margins: { left: 0.3, right: 0.3, top: 0.5, bottom: 0.5, header: 0.25, footer: 0.25 },
    },
    headerFooter: {
      oddFooter: `&L${rfq.rfq_no !== undefined ? `RFQ ${rfq.rfq_no}` : `RFQ id ${rfq._id}`} quote comparison&RPage &P of &N`,
    },
  }) as Worksheet;

  // ---- widths that fit the content (bounded so one long text does not push everything off screen)
  let wExt = textWidth('External ID');
  let wProd = 0;
  let wSpec = 0;
  let wUom = 4;
  let wQty = 5;
  let wMoney = 10;
  // The currency after each amount (` "EUR"` shows as ` EUR`).
  const curW = model.currency ? model.currency.length + 1 : 0;
  let wBest = 14;
  for (const l of lines) {
    wExt = Math.max(wExt, textWidth(l.externalId));
    wProd = Math.max(wProd, textWidth(l.product));
    wSpec = Math.max(wSpec, textWidth(l.specification));
    wUom = Math.max(wUom, textWidth(l.uom));
    wQty = Math.max(wQty, l.qty === undefined ? 0 : numberWidth(Math.abs(l.qty)) - 3);
    wMoney = Math.max(wMoney, moneyWidth(l.estimatedTotal), moneyWidth(l.estimatedUnit, 2), moneyWidth(l.highest, 2));
    if (l.best !== undefined) wBest = Math.max(wBest, textWidth(suppliers[l.best]!.name) + (l.tiedAtBest.length > 1 ? 8 : 0));
  }
  const widths: number[] = [
    clamp(wExt + 2, 14, 24),
    clamp(wProd + 2, 18, 40),
    clamp(wSpec + 2, 16, 40),
    clamp(wUom + 2, 6, 12),
    clamp(wQty + 2, 6, 14),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    7,
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    clamp(wBest + 2, 16, 36),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    clamp(wMoney + 2 + curW, 10, 20 + curW),
    9,
  ];
  for (const s of suppliers) {
    let maxUnit = 0;
    let maxTotal = 0;
    for (let i = 0; i < lines.length; i++) {
      const u = s.unitValues[i]!;
      const v = s.lineTotalValues[i]!;
      if (u > maxUnit) maxUnit = u;
      if (v > maxTotal) maxTotal = v;
    }
    const wu = Math.max(10, numberWidth(maxUnit) + 2) + curW;
    const wt = Math.max(11, numberWidth(maxTotal), moneyWidth(s.total)) + curW;
    // Supplier names wrap over two lines in the group header (3 columns wide).
    const need = Math.ceil(textWidth(s.name) / 2) + 2;
    const have = wu + wt + 6 + 4;
    const spare = Math.max(0, need - have);
    widths.push(clamp(wu + 2 + Math.ceil(spare / 2), 10, 24 + curW), clamp(wt + 2 + Math.floor(spare / 2), 11, 26 + curW), 5);
  }
  ws.columns = widths.map((width) => ({ width }));
  if (lines.length > 0) ws.autoFilter = `A${R.columnHeader}:${colLetter(lastDataCol)}${lastRow}`;

  // ---- header block
  const offset = zoneOffsetLabel(input.generatedAt.getTime(), timeZone);
  const title = ws.getRow(R.title);
  title.height = 22;
  put(title, 1, t(`Quote comparison · ${rfqHeading(model)}`), S.title);
  const legend = ws.getRow(R.legend);
  put(
    legend,
    1,
    `${model.currency ? `Amounts in ${model.currency}.` : 'Currency not named (no profile currency or REQUISITION_CURRENCY).'} Times in ${timeZone} (${offset} when generated). ${basisHeader(model)} ` +
      `Green = lowest qualified price of the line; hatched = no quote (not zero); grey = not qualified (excluded); ` +
      `gold = winner. ${model.notes.length} notes on sheet "${SHEETS.notes}".`,
    S.subtitle,
  );
  const requisition = input.requisition
    ? `${input.requisition.key}${input.requisition.profile ? ` (profile ${input.requisition.profile})` : ''} from ${input.requisition.sourceFile}`
    : '';
  const meta: Array<[string, Value, string, string]> = [
    ['RFQ no / id', `${rfq.rfq_no ?? '—'} / ${rfq._id}`, 'Company', rfq.comp_name ?? ''],
    ['RFQ date', date(rfq.rfq_date), 'Status', stateLabel(model)],
    ['Due date', date(rfq.due_date), 'Type / category', [rfq.rfq_type, rfq.rfq_category].filter(Boolean).join(' / ')],
    ['Required date', date(rfq.required_date), 'Location', rfq.rfq_location ?? ''],
    ['Generated', date(input.generatedAt.getTime()), 'Requisition', requisition],
  ];
  meta.forEach(([l1, v1, l2, v2], i) => {
    const row = ws.getRow(R.metaFirst + i);
    put(row, 1, l1, S.label);
    put(row, 2, typeof v1 === 'string' ? t(v1) : v1, v1 instanceof Date ? S.date : S.text);
    put(row, 3, l2, S.labelRight);
    put(row, 4, t(v2), S.text);
  });

  // ---- supplier group headers and per-supplier summary (above the lines so they stay in view)
  const labelCol = C.savingsPct;
  const headerRows = {
    name: ws.getRow(R.supplierName),
    info: ws.getRow(R.supplierInfo),
    total: ws.getRow(R.total),
    coverage: ws.getRow(R.coverage),
    rank: ws.getRow(R.rankByTotal),
    deviation: ws.getRow(R.deviation),
  };
  headerRows.name.height = 30;
  headerRows.info.height = 24;
  put(headerRows.name, labelCol, 'Supplier', S.labelRight);
  put(headerRows.info, labelCol, 'Key · revision · decision', S.labelRight);
  put(headerRows.total, labelCol, 'Total of quoted lines', S.labelRight);
  put(headerRows.coverage, labelCol, 'Coverage (lines quoted)', S.labelRight);
  put(headerRows.rank, labelCol, 'Rank by total (full coverage)', S.labelRight);
  put(headerRows.deviation, labelCol, 'Deviation from best total', S.labelRight);
  writeAwardSummary(ws, model);
  const lineCount = lines.length;
  suppliers.forEach((s, si) => {
    const c0 = C.firstSupplier + si * 3;
    const kind = headerKind(s);
    const group = (row: Row, value: Value, styles: readonly [Record<SupplierHeaderKind, Partial<Style>>, Record<SupplierHeaderKind, Partial<Style>>]): void => {
      put(row, c0, value, styles[0][kind]);
      put(row, c0 + 1, null, styles[1][kind]);
      put(row, c0 + 2, null, styles[1][kind]);
      ws.mergeCells(row.number, c0, row.number, c0 + 2);
    };
    group(headerRows.name, t(s.name || `(no name) key ${s.key}`), GROUP_HEADER.name);
    const info = [`key ${s.key}`, s.revision !== undefined ? `rev ${s.revision}` : 'rev ?', decisionLabel(s)];
    if (s.winner) info.push('★ WINNER');
    group(headerRows.info, t(info.join(' · ')), GROUP_HEADER.info);
    group(headerRows.total, num(s.total), GROUP_HEADER.money);
    group(
      headerRows.coverage,
      `${s.linesQuoted} of ${lineCount} (${lineCount ? s.coverage.mul(100).toDecimalPlaces(0).toFixed() : 0}%)`,
      GROUP_HEADER.text,
    );
    group(
      headerRows.rank,
      s.rankByTotal ?? (!s.eligible ? '— not qualified' : s.fullCoverage ? '—' : '— partial'),
      s.rankByTotal !== undefined ? GROUP_HEADER.rank : GROUP_HEADER.text,
    );
    group(headerRows.deviation, num(s.deviationFromBest), GROUP_HEADER.deviation);
  });

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
  ];
  const hdr = ws.getRow(R.columnHeader);
  hdr.height = 32;
  for (const [col, text, style] of colHeaders) put(hdr, col, text, style);
  suppliers.forEach((_s, si) => {
    const c0 = C.firstSupplier + si * 3;
    put(hdr, c0, 'Unit price', COL_HEADER_GROUP_START);
    put(hdr, c0 + 1, 'Line total', S.colHeader);
    put(hdr, c0 + 2, 'Rank', S.colHeader);
  });
  for (let r = R.title; r <= R.columnHeader; r++) ws.getRow(r).commit();

  // ---- one row per line
  const unitStyles = SUPPLIER_CELL.unit;
  const totalStyles = SUPPLIER_CELL.total;
  const rankStyles = SUPPLIER_CELL.rank;
  const supplierCount = suppliers.length;
  for (const line of lines) {
    const row = ws.getRow(R.columnHeader + 1 + line.index);
    writeLineInfo(row, line, model);
    const li = line.index;
    for (let si = 0; si < supplierCount; si++) {
      const s = suppliers[si]!;
      const c0 = C.firstSupplier + si * 3;
      const price = s.unitValues[li]!;
      const missing = s.quoted[li] == null;
      const rank = line.ranks[si]!;
      let kind: SupplierKind;
      if (missing) kind = s.eligible ? 'missing' : 'nqMissing';
      else if (!s.eligible) kind = 'nq';
      else if (rank === 1) kind = 'lowest';
      else kind = 'normal';
      put(row, c0, Number.isNaN(price) ? null : price, unitStyles[kind]);
      const total = s.lineTotalValues[li]!;
      put(row, c0 + 1, Number.isNaN(total) ? null : total, totalStyles[kind]);
      put(row, c0 + 2, rank > 0 ? rank : null, rankStyles[kind]);
    }
    row.commit();
    if ((line.index + 1) % ROWS_PER_YIELD === 0) await yieldToLoop();
  }
  ws.commit();
}

/** The bottom line, on the first page: what a split award costs and saves (details on the Award sheet). */
function writeAwardSummary(ws: Worksheet, model: ComparisonModel): void {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const { award, suppliers, lines } = model;
  const R = COMPARISON_ROWS;
  const n = lines.length;
  const row = (r: number, label: string, value: Decimal | undefined, detail: string): void => {
    const x = ws.getRow(r);
    put(x, 1, label, S.label);
    put(x, 3, num(value), S.moneyBold);
    put(x, 4, t(detail), S.text);
  };
  put(ws.getRow(R.supplierName), 1, `Award summary (details on sheet "${SHEETS.award}")`, S.summaryTitle);
  row(R.supplierInfo, 'Split award total', award.splitTotal, `${award.splitLinesCovered} of ${n} lines, each to its lowest qualified price`);
  const single = award.bestSingle ? suppliers[award.bestSingle.supplier]! : undefined;
  row(R.total, 'Best single supplier', award.bestSingle?.total, single ? `${single.name || `key ${single.key}`} (all lines)` : 'none: no qualified supplier quoted every line');
  row(
    R.coverage,
    'Splitting saves',
    award.splitSaving,
    award.splitSavingPct !== undefined ? `${pctText(award.splitSavingPct)} of the best single supplier's total` : '',
  );
  const vsEstimate = award.estimatedTotal !== undefined && award.splitLinesCovered === n ? award.estimatedTotal.sub(award.splitTotal) : undefined;
  row(
    R.rankByTotal,
    'Estimated total',
    award.estimatedTotal,
    vsEstimate !== undefined && award.estimatedTotal && !award.estimatedTotal.isZero()
      ? `split award is ${vsEstimate.isNegative() ? 'above' : 'below'} it by ${pctText(vsEstimate.abs().div(award.estimatedTotal))}`
      : '',
  );
  if (award.winner) {
    const w = suppliers[award.winner.supplier]!;
    row(R.deviation, 'Winner (completed)', award.winner.total, `${w.name || `key ${w.key}`}: ${award.winner.linesQuoted} of ${n} lines`);
  } else {
    const x = ws.getRow(R.deviation);
    put(x, 1, 'Award basis', S.label);
    put(x, 3, basisLabel(award.basis), S.text);
  }
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

function writeLineInfo(row: Row, line: LineComparison, model: ComparisonModel): void {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const C = COMPARISON_COLS;
  put(row, C.externalId, t(line.externalId), S.text);
  put(row, C.product, t(line.product), S.text);
  put(row, C.specification, t(line.specification), S.text);
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
    put(row, C.bestSupplier, model.suppliers.every((s) => s.quoted[line.index] == null) ? 'no quote' : 'only not-qualified quotes', S.statsNoQuote);
  }
  put(row, C.bestLineTotal, num(line.bestLineTotal), S.statsMoney);
  put(row, C.savings, num(line.savings), S.statsMoney);
  put(row, C.savingsPct, num(line.savingsPct?.toDecimalPlaces(6)), S.statsPct);
}

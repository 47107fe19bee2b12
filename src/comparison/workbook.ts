/**
 * Renders a ComparisonModel into an .xlsx with exceljs' streaming writer (rows are committed as they are written,
 * so 5,000 lines x 50 suppliers stay within a small, flat memory budget). Only values are written, never formulas
 * or hyperlinks; every text that came from the service or the ERP export goes through safeCellText.
 */
import ExcelJS from 'exceljs';
import type { Cell, Row, Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { writeAtomically } from '../atomic-write.ts';
import { UnexpectedError } from '../errors.ts';
import { safeCellText } from '../spreadsheet-safety.ts';
import { excelDateInZone, zoneOffsetLabel } from './dates.ts';
import { buildComparison, draftText, supplierLabel } from './model.ts';
import { tieReason } from './stages.ts';
import type { ComparisonInput, ComparisonModel, LineComparison, SupplierSummary } from './types.ts';
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

export const SHEETS = { comparison: 'Comparison', suppliers: 'Suppliers', award: 'Award', notes: 'Notes' } as const;

type Value = string | number | Date | null;

/** Excel refuses (offers to "repair") a cell holding more than 32,767 characters. */
const EXCEL_MAX_CELL_TEXT = 32_767;

/** Every text from the service or the ERP export passes through here: neutralised, then bounded. */
function t(value: string | null | undefined): string {
  const safe = safeCellText(value);
  const mark = ' [truncated]';
  return safe.length > EXCEL_MAX_CELL_TEXT ? safe.slice(0, EXCEL_MAX_CELL_TEXT - mark.length) + mark : safe;
}

/** Excel's last column is XFD (16,384). */
const EXCEL_MAX_COLUMNS = 16_384;
const num = (d: Decimal | undefined | null): number | null => (d === undefined || d === null ? null : d.toNumber());

function put(row: Row, col: number, value: Value, style?: Partial<Style>): Cell {
  const cell = row.getCell(col);
  if (value !== null) cell.value = value;
  if (style) cell.style = style;
  return cell;
}

function colLetter(n: number): string {
  let s = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Display width (characters) of a money value in '#,##0.00' (extra = additional decimals shown). */
function moneyWidth(d: Decimal | undefined | null, extra = 0): number {
  if (!d) return 0;
  const intDigits = d.abs().floor().toFixed().length;
  return intDigits + Math.floor((intDigits - 1) / 3) + 3 + extra + (d.isNegative() ? 1 : 0);
}

/** Display width of a non-negative double in '#,##0.00'. */
function numberWidth(v: number): number {
  const intDigits = v >= 1 ? Math.floor(Math.log10(v)) + 1 : 1;
  return intDigits + Math.floor((intDigits - 1) / 3) + 3;
}

function textWidth(s: string | undefined): number {
  return s ? s.length : 0;
}

/**
 * Row height (points) for text wrapped in a column `width` characters wide. Neither LibreOffice's converter nor
 * every Excel version re-measures rows on open, so wrapped rows get an explicit height.
 */
function wrappedHeight(text: string, width: number): number {
  const lines = text
    .split(/\r?\n/)
    .reduce((n, part) => n + Math.max(1, Math.ceil(part.length / (width * 1.05))), 0);
  return Math.min(409, Math.max(15, lines * 13 + 3));
}

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));

function decisionLabel(s: SupplierSummary): string {
  return s.decision === 'undecided' ? 'no decision yet' : s.decision;
}

function headerKind(s: SupplierSummary): SupplierHeaderKind {
  return s.winner ? 'winner' : s.eligible ? 'eligible' : 'nq';
}

/** The price basis in the header: a wrong basis multiplies every amount by the quantity, so it is said up front. */
function basisHeader(model: ComparisonModel): string {
  const basis =
    model.priceBasis === 'unit'
      ? 'Price basis: quoted prices are UNIT prices; line total = unit price × qty.'
      : 'Price basis: quoted prices are LINE TOTALS; unit price = line total ÷ qty.';
  return model.priceBasisWarning ? `${basis} WARNING: the quotes look like ${model.priceBasisWarning.looksLike === 'unit' ? 'unit prices' : 'line totals'} (see Notes).` : basis;
}

function rfqHeading(model: ComparisonModel): string {
  const { rfq, version } = model.input;
  const no = rfq.rfq_no !== undefined ? `RFQ ${rfq.rfq_no}` : `RFQ id ${rfq._id}`;
  const v = version !== undefined ? ` · version ${version}` : '';
  return `${no}${rfq.title ? ` · ${rfq.title}` : ''}${v}`;
}

function stateLabel(model: ComparisonModel): string {
  const { state, rfq } = model.input;
  return rfq.status ? `${state} (service status: ${rfq.status})` : state;
}

// ------------------------------------------------------------------------------------------------ Comparison

/**
 * exceljs' streaming writer ignores back-pressure: committed rows pile up as Buffers until zlib (on the libuv
 * thread pool) takes them, and zlib only gets the next chunk when the event loop turns. Yielding after every row
 * keeps that backlog at a few chunks (measured at 5,000 x 50: 42 MB of pending buffers with a yield every 100
 * rows, 5 MB with one per row, and the write got faster). It also keeps a worker's event loop responsive.
 */
const ROWS_PER_YIELD = 1;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function writeComparisonSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): Promise<void> {
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

function pctText(fraction: Decimal): string {
  return `${fraction.mul(100).toDecimalPlaces(1).toFixed(1)}%`;
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

// ------------------------------------------------------------------------------------------------ Suppliers

function writeSuppliersSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): void {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const { suppliers, timeZone, lines } = model;
  const ws = wb.addWorksheet(SHEETS.suppliers, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: 3 }],
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '3:3' },
  }) as Worksheet;
  const nameWidth = clamp(Math.max(0, ...suppliers.map((s) => textWidth(s.name))) + 2, 18, 40);
  ws.columns = [8, nameWidth, 12, 16, 9, 9, 18, 9, 9, 10, 16, 12, 11, 60].map((width) => ({ width }));
  if (suppliers.length > 0) ws.autoFilter = `A3:N${3 + suppliers.length}`;
  put(ws.getRow(1), 1, t(`Suppliers · ${rfqHeading(model)}`), S.title);
  put(ws.getRow(2), 1, `One row per quotation, in the column order of the Comparison sheet. Dates in ${timeZone}.`, S.subtitle);
  const hdr = ws.getRow(3);
  hdr.height = 32;
  [
    'Rank by total',
    'Supplier',
    'Key',
    'Decision',
    'Winner',
    'Revision',
    `Quotation date (${timeZone})`,
    'Lines quoted',
    'Lines on RFQ',
    'Coverage',
    'Total of quoted lines',
    'Deviation from best',
    'Documents',
    'Notes',
  ].forEach((text, i) => put(hdr, i + 1, text, S.colHeader));
  for (let r = 1; r <= 3; r++) ws.getRow(r).commit();
  suppliers.forEach((s, i) => {
    const row = ws.getRow(4 + i);
    const muted = !s.eligible;
    put(row, 1, s.rankByTotal ?? null, S.int);
    put(row, 2, t(s.name), muted ? S.textMuted : S.text);
    put(row, 3, t(s.key), S.text);
    put(row, 4, decisionLabel(s), muted ? S.textMuted : S.text);
    put(row, 5, s.winner ? '★ winner' : null, s.winner ? S.winnerMark : undefined);
    put(row, 6, s.revision ?? null, S.int);
    put(row, 7, s.quotationDate !== undefined ? excelDateInZone(s.quotationDate, timeZone) : null, S.date);
    put(row, 8, s.linesQuoted, S.int);
    put(row, 9, lines.length, S.int);
    put(row, 10, num(s.coverage), S.pct);
    put(row, 11, num(s.total), S.money);
    put(row, 12, num(s.deviationFromBest), S.deviation);
    put(row, 13, s.documents, S.int);
    put(row, 14, t(s.notes), S.wrap);
    row.height = wrappedHeight(s.notes ?? '', 60);
    row.commit();
  });
  if (suppliers.length === 0) {
    const row = ws.getRow(4);
    put(row, 2, 'No quotations received.', S.textMuted);
    row.commit();
  }
  ws.commit();
}

// ------------------------------------------------------------------------------------------------ Award

export const AWARD_ROWS = { scenarioHeader: 4, split: 5, bestSingle: 6, splitSaving: 7, winner: 8, estimate: 9, tableHeader: 11 } as const;

function linesText(n: number, of: number): string {
  return `${n} of ${of}`;
}

export function basisLabel(basis: ComparisonModel['award']['basis']): string {
  return basis === 'winning-quotation' ? 'winning quotation' : 'lowest qualified price';
}

async function writeAwardSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): Promise<void> {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const { suppliers, lines, award } = model;
  const A = AWARD_ROWS;
  const ws = wb.addWorksheet(SHEETS.award, {
    views: [{ state: 'frozen', ySplit: A.tableHeader }],
    pageSetup: {
      orientation: 'landscape',
      paperSize: 9,
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: `${A.tableHeader}:${A.tableHeader}`,
    },
  }) as Worksheet;
  let wExt = 12;
  let wProd = 16;
  let wSup = 20;
  for (const l of lines) {
    wExt = Math.max(wExt, textWidth(l.externalId));
    wProd = Math.max(wProd, textWidth(l.product));
  }
  for (const s of suppliers) wSup = Math.max(wSup, textWidth(s.name));
  // The scenario rows name a supplier with its key.
  if (model.award.bestSingle) wSup = Math.max(wSup, textWidth(supplierLabel(suppliers[model.award.bestSingle.supplier]!)));
  if (model.award.winner) wSup = Math.max(wSup, textWidth(supplierLabel(suppliers[model.award.winner.supplier]!)));
  ws.columns = [
    clamp(wExt + 2, 14, 30),
    12,
    clamp(wProd + 2, 18, 45),
    9,
    8,
    clamp(wSup + 2, 22, 48),
    14,
    14,
    16,
    22,
    44,
  ].map((width) => ({ width }));
  if (lines.length > 0) ws.autoFilter = `A${A.tableHeader}:K${A.tableHeader + lines.length}`;

  const n = lines.length;
  put(ws.getRow(1), 1, t(`${award.final ? 'Award (final)' : 'DRAFT award recommendation'} · ${rfqHeading(model)}`), S.title);
  if (!award.final) put(ws.getRow(3), 1, draftText(award.undecided, model.input.state), S.draft);
  put(
    ws.getRow(2),
    1,
    award.basis === 'winning-quotation'
      ? 'Basis: the winning quotation of the completed RFQ. The scenarios below compare it with the lowest qualified prices.'
      : 'Basis: per line, the lowest unit price among qualified quotations (not-qualified excluded; quotations without a decision yet count as eligible). Ties go to the earlier quotation, then the lower key.',
    S.subtitle,
  );
  const sh = ws.getRow(A.scenarioHeader);
  sh.height = 30;
  put(sh, 1, 'Award scenarios', S.colHeader);
  for (let c = 2; c <= 5; c++) put(sh, c, null, S.colHeader);
  put(sh, 6, 'Supplier', S.colHeader);
  put(sh, 7, 'Lines', S.colHeader);
  put(sh, 8, null, S.colHeader);
  put(sh, 9, 'Total', S.colHeader);
  put(sh, 10, 'Difference vs split award', S.colHeader);
  put(sh, 11, 'Difference %', S.colHeader);
  ws.mergeCells(A.scenarioHeader, 1, A.scenarioHeader, 5);

  const scenario = (r: number, label: string, supplier: Value, linesCell: Value, total: Value, diff?: Decimal, pct?: Decimal): void => {
    const row = ws.getRow(r);
    put(row, 1, label, S.label);
    ws.mergeCells(r, 1, r, 5);
    put(row, 6, supplier, S.textPad);
    put(row, 7, linesCell, S.center);
    put(row, 9, total, S.moneyBold);
    put(row, 10, num(diff), S.money);
    put(row, 11, num(pct?.toDecimalPlaces(6)), S.deviationCenter);
  };
  scenario(A.split, 'Split award: each line to its lowest qualified price', 'per line', linesText(award.splitLinesCovered, n), num(award.splitTotal));
  if (award.bestSingle) {
    const s = suppliers[award.bestSingle.supplier]!;
    scenario(
      A.bestSingle,
      'Best single qualified supplier covering every line',
      t(supplierLabel(s)),
      linesText(s.linesQuoted, n),
      num(award.bestSingle.total),
      award.splitSaving,
      award.splitSavingPct,
    );
  } else {
    scenario(A.bestSingle, 'Best single qualified supplier covering every line', 'none: no qualified supplier quoted every line', null, null);
  }
  scenario(
    A.splitSaving,
    'Splitting the award saves (single supplier total − split total)',
    null,
    null,
    num(award.splitSaving),
    undefined,
    award.splitSavingPct,
  );
  if (award.winner) {
    const w = suppliers[award.winner.supplier]!;
    const diff = award.splitLinesCovered === n ? award.winner.total.sub(award.splitTotal) : undefined;
    scenario(
      A.winner,
      'Winning quotation (completed RFQ)',
      t(supplierLabel(w)),
      linesText(award.winner.linesQuoted, n),
      num(award.winner.total),
      diff,
      diff !== undefined && !award.splitTotal.isZero() ? diff.div(award.splitTotal) : undefined,
    );
  } else {
    scenario(A.winner, 'Winning quotation', model.input.state === 'completed' ? 'not known' : 'RFQ not completed yet', null, null);
  }
  scenario(A.estimate, 'Estimated total of the requisition', null, null, num(award.estimatedTotal));
  const hdr = ws.getRow(A.tableHeader);
  hdr.height = 30;
  [
    'External ID',
    'Line ID',
    'Product',
    'Qty',
    'UoM',
    'Recommended supplier',
    'Supplier key',
    'Unit price',
    'Line total',
    'Basis',
    'Remark',
  ].forEach((text, i) => put(hdr, i + 1, text, S.colHeader));
  for (let r = 1; r <= A.tableHeader; r++) ws.getRow(r).commit();

  for (const line of lines) {
    const row = ws.getRow(A.tableHeader + 1 + line.index);
    put(row, 1, t(line.externalId), S.text);
    put(row, 2, t(line.lineId), S.text);
    put(row, 3, t(line.product), S.text);
    put(row, 4, line.qty ?? null, S.qty);
    put(row, 5, t(line.uom), S.center);
    if (line.award) {
      const s = suppliers[line.award.supplier]!;
      put(row, 6, t(s.name), S.textPad);
      put(row, 7, t(s.key), S.center);
      put(row, 8, num(line.award.unitPrice), S.unit);
      put(row, 9, num(line.award.lineTotal), S.money);
      put(row, 10, basisLabel(line.award.basis), S.textPad);
      const remark = line.award.single
        ? 'splitting saves nothing: the single supplier gets every line (one order)'
        : line.award.basis === 'lowest-qualified-price' && line.tiedAtBest.length > 1
          ? `tie between ${line.tiedAtBest.length} suppliers at this price; ${tieReason(suppliers, line.tiedAtBest)}`
          : s.decision === 'undecided'
            ? 'supplier not yet qualified (no decision)'
            : '';
      put(row, 11, t(remark), S.text);
    } else {
      put(row, 6, 'not awarded', S.awardNone);
      put(row, 11, t(line.noAwardReason ?? ''), S.awardNone);
    }
    row.commit();
    if ((line.index + 1) % (ROWS_PER_YIELD * 10) === 0) await yieldToLoop();
  }
  const totalRow = ws.getRow(A.tableHeader + 1 + lines.length);
  put(totalRow, 6, `Total awarded (${linesText(award.awardedLines, n)} lines)`, S.label);
  put(totalRow, 9, num(award.awardedTotal), S.moneyBold);
  totalRow.commit();
  ws.commit();
}

// ------------------------------------------------------------------------------------------------ Notes

function writeNotesSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): void {
  const { S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START } = stylesFor(model.currency);
  const ws = wb.addWorksheet(SHEETS.notes, {
    views: [{ state: 'frozen', ySplit: 2 }],
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToWidth: 1, fitToHeight: 0 },
  }) as Worksheet;
  ws.columns = [{ width: 30 }, { width: 120 }];
  put(ws.getRow(1), 1, t(`Notes · ${rfqHeading(model)}`), S.title);
  const hdr = ws.getRow(2);
  put(hdr, 1, 'Topic', S.colHeader);
  put(hdr, 2, 'Note', S.colHeader);
  ws.getRow(1).commit();
  hdr.commit();
  model.notes.forEach((note, i) => {
    const row = ws.getRow(3 + i);
    put(row, 1, t(note.topic), S.labelTop);
    put(row, 2, t(note.text), S.wrap);
    row.height = wrappedHeight(note.text, 120);
    row.commit();
  });
  ws.commit();
}

// ------------------------------------------------------------------------------------------------ entry

/**
 * LibreOffice only shows an autofilter when the workbook also defines the sheet-local name _xlnm._FilterDatabase
 * (Excel writes it too); exceljs' streaming writer does not, and its DefinedNames model cannot carry a sheet id.
 * The writer reads `_definedNames.model` once, in commit(), after the sheets are written: answer it from them.
 */
function declareFilterRanges(wb: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const internal = wb as unknown as { _definedNames: unknown; _worksheets: Array<Worksheet | undefined> };
  internal._definedNames = {
    get model() {
      return internal._worksheets
        .filter((ws): ws is Worksheet => ws !== undefined)
        .flatMap((ws, index) => {
          const ref = typeof ws.autoFilter === 'string' ? ws.autoFilter : undefined;
          if (!ref) return [];
          const [from, to] = ref.split(':') as [string, string];
          const abs = (a: string): string => a.replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2');
          return [{ name: '_xlnm._FilterDatabase', localSheetId: index, ranges: [`'${ws.name}'!${abs(from)}:${abs(to)}`] }];
        });
    },
  };
}

/** Streams the workbook for an already built model to `filePath` (not atomic: see writeComparisonWorkbook). */
export async function writeComparisonModel(model: ComparisonModel, filePath: string): Promise<void> {
  // Checked before a file is opened: Excel cannot hold more columns than this, whatever we would write.
  const lastCol = COMPARISON_COLS.firstSupplier + model.suppliers.length * 3 - 1;
  if (lastCol > EXCEL_MAX_COLUMNS) {
    throw new UnexpectedError(`${model.suppliers.length} quotations need ${lastCol} columns; a worksheet holds at most ${EXCEL_MAX_COLUMNS}`);
  }
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: filePath,
    useStyles: true,
    useSharedStrings: false,
  });
  declareFilterRanges(wb);
  wb.creator = 'rfq-sync';
  wb.lastModifiedBy = 'rfq-sync';
  wb.created = model.input.generatedAt;
  wb.modified = model.input.generatedAt;
  await writeComparisonSheet(wb, model);
  writeSuppliersSheet(wb, model);
  await writeAwardSheet(wb, model);
  writeNotesSheet(wb, model);
  await wb.commit();
}

/** Builds the comparison and writes it to `outPath` atomically (temporary name, then rename). */
export async function writeComparisonWorkbook(input: ComparisonInput, outPath: string): Promise<void> {
  const model = buildComparison(input);
  await writeAtomically(outPath, (tmp) => writeComparisonModel(model, tmp));
}


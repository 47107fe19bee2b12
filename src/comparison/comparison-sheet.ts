/**
 * The Comparison sheet: one row per RFQ line, one column group per quotation (unit price, line total, % of the line
 * mean, rank), the line statistics between them, and above them the supplier summaries (with the supplier's notes
 * and attachments) and the award's bottom line.
 */
import ExcelJS from 'exceljs';
import type { Row, Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { excelDateInZone, zoneOffsetLabel } from './dates.ts';
import { basisLabel } from './award-sheet.ts';
import { draftText } from './model.ts';
import { colBreaksXml, printLayout } from './print-layout.ts';
import {
  basisHeader,
  clamp,
  colLetter,
  decisionLabel,
  headerKind,
  moneyWidth,
  num,
  numberWidth,
  pctText,
  put,
  rfqHeading,
  ROWS_PER_YIELD,
  SHEETS,
  stateLabel,
  t,
  textWidth,
  yieldToLoop,
  type Value,
} from './sheet-common.ts';
import type { ComparisonModel, LineComparison, SupplierSummary } from './types.ts';
import { stylesFor, type Styles, type SupplierHeaderKind, type SupplierKind } from './styles.ts';

/** Row numbers of the Comparison sheet's header block. */
export const COMPARISON_ROWS = {
  title: 1,
  legend: 2,
  metaFirst: 3,
  supplierName: 8,
  supplierInfo: 9,
  supplierNotes: 10,
  total: 11,
  coverage: 12,
  rankByTotal: 13,
  deviation: 14,
  columnHeader: 15,
  firstLine: 16,
} as const;

/**
 * Column numbers of the Comparison sheet (1-based); supplier s occupies the `perSupplier` columns from
 * firstSupplier + perSupplier * s, in the order of SUPPLIER_PARTS.
 */
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
  perSupplier: 4,
} as const;

/** Offsets of a supplier group's columns. */
export const SUPPLIER_PARTS = { unit: 0, lineTotal: 1, pctOfMean: 2, rank: 3 } as const;

/** The first column of supplier `si`'s group. */
export const supplierColumn = (si: number): number => COMPARISON_COLS.firstSupplier + si * COMPARISON_COLS.perSupplier;

/** The style aligned to the top of a row that wrapped text made taller (a new object: use for a few cells only). */
const top = (style: Partial<Style>): Partial<Style> => ({
  ...style,
  alignment: { ...style.alignment, vertical: 'top' },
});

/** Notes longer than this are cut in the group header (all of them are on the Suppliers sheet). */
const NOTES_IN_HEADER = 240;

export async function writeComparisonSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  model: ComparisonModel,
): Promise<void> {
  const R = COMPARISON_ROWS;
  const { rfq } = model.input;
  const widths = columnWidths(model);
  const C = COMPARISON_COLS;
  const blocks = [C.externalId, C.quotes, ...model.suppliers.map((_s, si) => supplierColumn(si))];
  const print = printLayout(widths, blocks);
  const ws = wb.addWorksheet(SHEETS.comparison, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: R.columnHeader, activeCell: `C${R.firstLine}`, showGridLines: true }],
    pageSetup: {
      orientation: 'landscape',
      paperSize: 9, // A4
      scale: print.scale,
      printTitlesRow: `${R.supplierName}:${R.columnHeader}`,
      printTitlesColumn: print.repeatColumns,
      margins: { left: 0.3, right: 0.3, top: 0.5, bottom: 0.5, header: 0.25, footer: 0.25 },
    },
    headerFooter: {
      oddFooter: `&L${rfq.rfq_no !== undefined ? `RFQ ${rfq.rfq_no}` : `RFQ id ${rfq._id}`} quote comparison&RPage &P of &N`,
    },
  }) as Worksheet;
  addColumnBreaks(ws, print.breaksAfter);
  ws.columns = widths.map((width) => ({ width }));
  const lastDataCol = Math.max(
    COMPARISON_COLS.firstSupplier + model.suppliers.length * COMPARISON_COLS.perSupplier - 1,
    COMPARISON_COLS.savingsPct,
  );
  if (model.lines.length > 0)
    ws.autoFilter = `A${R.columnHeader}:${colLetter(lastDataCol)}${R.columnHeader + model.lines.length}`;

  const st = stylesFor(model.currency);
  const span = (from: number): number => widths.slice(from - 1, C.quotes - 1).reduce((a, b) => a + b, 0);
  writeHeaderBlock(ws, model, st, span(1), span(4));
  writeSupplierHeaders(ws, model, st);
  writeColumnHeaders(ws, model, st);
  for (let r = R.title; r <= R.columnHeader; r++) ws.getRow(r).commit();
  for (const line of model.lines) {
    const row = ws.getRow(R.firstLine + line.index);
    writeLineInfo(row, line, model);
    writeSupplierCells(row, line, model, st);
    row.commit();
    if ((line.index + 1) % ROWS_PER_YIELD === 0) await yieldToLoop();
  }
  writeAwardSummary(ws, model, R.firstLine + model.lines.length + 1, span(4));
  ws.commit();
}

/**
 * exceljs' streaming writer has row page breaks only: the column breaks go in right after them, where the
 * worksheet schema wants them (rowBreaks, then colBreaks).
 */
function addColumnBreaks(ws: Worksheet, breaksAfter: readonly number[]): void {
  const xml = colBreaksXml(breaksAfter);
  if (!xml) return;
  const writer = ws as unknown as { _writeRowBreaks(): void; stream: { write(chunk: string): void } };
  const writeRowBreaks = writer._writeRowBreaks.bind(writer);
  writer._writeRowBreaks = () => {
    writeRowBreaks();
    writer.stream.write(xml);
  };
}

/** Widths that fit the content, bounded so one long text does not push everything off screen (or off the page). */
function columnWidths(model: ComparisonModel): number[] {
  const { lines, suppliers } = model;
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
    if (l.best !== undefined)
      wBest = Math.max(wBest, textWidth(suppliers[l.best]!.name) + (l.tiedAtBest.length > 1 ? 8 : 0));
  }
  const money = clamp(wMoney + 2 + curW, 10, 20 + curW);
  const widths: number[] = [
    clamp(wExt + 2, 14, 24),
    clamp(wProd + 2, 18, 40),
    clamp(wSpec + 2, 16, 40),
    clamp(wUom + 2, 6, 12),
    clamp(wQty + 2, 6, 14),
    money,
    money,
    8,
    money,
    money,
    money,
    clamp(wBest + 2, 16, 30),
    money,
    money,
    10,
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
    // Supplier names wrap over two lines in the group header (4 columns wide).
    const need = Math.ceil(textWidth(s.name) / 2) + 2;
    const have = wu + wt + 7 + 6 + 4;
    const spare = Math.max(0, need - have);
    widths.push(
      clamp(wu + 2 + Math.ceil(spare / 2), 10, 24 + curW),
      clamp(wt + 2 + Math.floor(spare / 2), 11, 26 + curW),
      7,
      6,
    );
  }
  return widths;
}

/** A date of the RFQ: the ERP's day when it gave only a day (and the RFQ still has that instant), else date and time. */
function headerDate(
  model: ComparisonModel,
  field: 'rfq_date' | 'due_date' | 'required_date',
): { value: Date | null; style: 'date' | 'dateOnly' } {
  const ms = model.input.rfq[field];
  if (ms === undefined) return { value: null, style: 'date' };
  const erp = field === 'rfq_date' ? undefined : model.input.erpDays?.[field];
  if (erp && erp.at === ms && /^\d{4}-\d{2}-\d{2}$/.test(erp.day)) {
    const [y, m, d] = erp.day.split('-').map(Number) as [number, number, number];
    return { value: new Date(Date.UTC(y, m - 1, d)), style: 'dateOnly' };
  }
  return { value: excelDateInZone(ms, model.timeZone), style: 'date' };
}

/**
 * `firstPageWidth`: characters of the columns before the statistics, which the title and legend span; `valueWidth`:
 * of those from D on, which the right-hand values span.
 */
function writeHeaderBlock(
  ws: Worksheet,
  model: ComparisonModel,
  { S }: Styles,
  firstPageWidth: number,
  valueWidth: number,
): void {
  const R = COMPARISON_ROWS;
  const spanTo = COMPARISON_COLS.quotes - 1;
  const { input, timeZone } = model;
  const { rfq } = input;
  const offset = zoneOffsetLabel(input.generatedAt.getTime(), timeZone);
  const title = ws.getRow(R.title);
  title.height = 22;
  put(title, 1, t(`Quote comparison · ${rfqHeading(model)}`), S.title);
  // Merged over the first page's columns and wrapped there: left to overflow, the legend would print in pieces
  // beside the repeated columns of every page.
  ws.mergeCells(R.title, 1, R.title, spanTo);
  const legend = ws.getRow(R.legend);
  const legendText =
    `${model.currency ? `Amounts in ${model.currency}.` : 'Currency not named (no profile currency or REQUISITION_CURRENCY).'} Times in ${timeZone} (${offset} when generated); dates the ERP gave without a time show as dates. ${basisHeader(model)} ` +
    `Green = lowest qualified price of the line; hatched = no quote (not zero); grey = not qualified (excluded); ` +
    `gold = winner; % of mean = unit price against the line's mean unit price. ${model.notes.length} notes on sheet "${SHEETS.notes}".`;
  put(legend, 1, legendText, S.subtitleWrap);
  ws.mergeCells(R.legend, 1, R.legend, spanTo);
  // 9 pt italic: about 1.2 characters per width unit
  legend.height = Math.min(120, Math.ceil(legendText.length / (firstPageWidth * 1.2)) * 11 + 4);
  const requisition = input.requisition
    ? `${input.requisition.key}${input.requisition.profile ? ` (profile ${input.requisition.profile})` : ''} from ${input.requisition.sourceFile}`
    : '';
  const rfqDate = headerDate(model, 'rfq_date');
  const due = headerDate(model, 'due_date');
  const required = headerDate(model, 'required_date');
  const meta: Array<[string, Value, keyof Styles['S'], string, string]> = [
    ['RFQ no / id', `${rfq.rfq_no ?? '—'} / ${rfq._id}`, 'text', 'Company', rfq.comp_name ?? ''],
    [
      'RFQ date',
      rfqDate.value,
      rfqDate.style,
      'Status',
      `${stateLabel(model)} · award ${model.award.final ? 'FINAL' : 'DRAFT'} (summary below the lines)`,
    ],
    ['Due date', due.value, due.style, 'Type / category', [rfq.rfq_type, rfq.rfq_category].filter(Boolean).join(' / ')],
    ['Required date', required.value, required.style, 'Location', rfq.rfq_location ?? ''],
    ['Generated', excelDateInZone(input.generatedAt.getTime(), timeZone), 'date', 'Requisition', requisition],
  ];
  meta.forEach(([l1, v1, style, l2, v2], i) => {
    const row = ws.getRow(R.metaFirst + i);
    put(row, 1, l1, top(S.label));
    put(row, 2, typeof v1 === 'string' ? t(v1) : v1, top(S[style]));
    put(row, 3, l2, top(S.labelRight));
    // merged to the end of the first page and wrapped there, as the legend
    put(row, 4, t(v2), S.wrapTop);
    ws.mergeCells(row.number, 4, row.number, spanTo);
    row.height = Math.max(15, Math.ceil(v2.length / Math.max(10, valueWidth)) * 15);
  });
}

/** What a buyer reads beside a supplier's prices: its notes, its attachments, the lines it attached documents to. */
export function supplierNotesText(s: SupplierSummary): string {
  const parts: string[] = [];
  const notes = (s.notes ?? '').trim();
  if (notes)
    parts.push(
      notes.length > NOTES_IN_HEADER
        ? `${notes.slice(0, NOTES_IN_HEADER - 1)}… (all on sheet "${SHEETS.suppliers}")`
        : notes,
    );
  if (s.attachmentNames.length > 0) parts.push(`Attachments: ${s.attachmentNames.join(', ')}`);
  const lineDocs = s.lineDocuments?.size ?? 0;
  if (lineDocs > 0) parts.push(`Documents on ${lineDocs} line(s): see the notes on their unit prices`);
  return parts.join('\n');
}

function writeSupplierHeaders(ws: Worksheet, model: ComparisonModel, { S, GROUP_HEADER }: Styles): void {
  const R = COMPARISON_ROWS;
  const { suppliers } = model;
  const lineCount = model.lines.length;
  const rows = {
    name: ws.getRow(R.supplierName),
    info: ws.getRow(R.supplierInfo),
    notes: ws.getRow(R.supplierNotes),
    total: ws.getRow(R.total),
    coverage: ws.getRow(R.coverage),
    rank: ws.getRow(R.rankByTotal),
    deviation: ws.getRow(R.deviation),
  };
  rows.name.height = 30;
  rows.info.height = 24;
  // In the columns every printed page repeats, so each page of supplier groups says what its header rows are.
  const label = (row: Row, text: string): void => {
    put(row, 1, text, S.labelRight);
    put(row, 2, null, S.labelRight);
    ws.mergeCells(row.number, 1, row.number, 2);
  };
  label(rows.name, 'Supplier');
  label(rows.info, 'Key · revision · decision');
  label(rows.notes, 'Notes · attachments');
  label(rows.total, 'Total of quoted lines');
  label(rows.coverage, 'Coverage (lines quoted)');
  label(rows.rank, 'Rank by total (full coverage)');
  label(rows.deviation, 'Deviation from best total');
  let notesLines = 1;
  suppliers.forEach((s, si) => {
    const c0 = supplierColumn(si);
    const kind = headerKind(s);
    const group = (
      row: Row,
      value: Value,
      styles: readonly [Record<SupplierHeaderKind, Partial<Style>>, Record<SupplierHeaderKind, Partial<Style>>],
    ): void => {
      put(row, c0, value, styles[0][kind]);
      for (let c = 1; c < COMPARISON_COLS.perSupplier; c++) put(row, c0 + c, null, styles[1][kind]);
      ws.mergeCells(row.number, c0, row.number, c0 + COMPARISON_COLS.perSupplier - 1);
    };
    group(rows.name, t(s.name || `(no name) key ${s.key}`), GROUP_HEADER.name);
    const info = [`key ${s.key}`, s.revision !== undefined ? `rev ${s.revision}` : 'rev ?', decisionLabel(s)];
    if (s.winner) info.push('★ WINNER');
    group(rows.info, t(info.join(' · ')), GROUP_HEADER.info);
    const notes = supplierNotesText(s);
    group(rows.notes, notes ? t(notes) : null, GROUP_HEADER.notes);
    // ~34 characters of 9 pt text per line in a group of four columns
    notesLines = Math.max(
      notesLines,
      notes.split('\n').reduce((n, part) => n + Math.max(1, Math.ceil(part.length / 34)), 0),
    );
    group(rows.total, num(s.total), GROUP_HEADER.money);
    group(
      rows.coverage,
      `${s.linesQuoted} of ${lineCount} (${lineCount ? s.coverage.mul(100).toDecimalPlaces(0).toFixed() : 0}%)`,
      GROUP_HEADER.text,
    );
    group(
      rows.rank,
      s.rankByTotal ?? (!s.eligible ? '— not qualified' : s.fullCoverage ? '—' : '— partial'),
      s.rankByTotal !== undefined ? GROUP_HEADER.rank : GROUP_HEADER.text,
    );
    group(rows.deviation, num(s.deviationFromBest), GROUP_HEADER.deviation);
  });
  rows.notes.height = Math.min(96, Math.max(15, notesLines * 12 + 3));
}

function writeColumnHeaders(ws: Worksheet, model: ComparisonModel, { S, COL_HEADER_GROUP_START }: Styles): void {
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
  });
}

function writeSupplierCells(row: Row, line: LineComparison, model: ComparisonModel, { SUPPLIER_CELL }: Styles): void {
  const P = SUPPLIER_PARTS;
  const li = line.index;
  // A display ratio: doubles are exact enough for a whole percent.
  const mean = line.mean && !line.mean.isZero() ? line.mean.toNumber() : Number.NaN;
  const { suppliers } = model;
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
  }
}

/** Rows of the award summary below the lines, from its first row. */
export const AWARD_SUMMARY_ROWS = {
  title: 0,
  status: 1,
  split: 2,
  bestSingle: 3,
  splitSaving: 4,
  estimate: 5,
  winnerOrBasis: 6,
} as const;

/**
 * The bottom line, below the lines (on the first page of a short RFQ): whether the award is final, what a split
 * award costs and saves. Not beside the supplier header rows: those print beside every page's supplier groups.
 */
/** `detailWidth`: characters of the columns the details are merged over. */
function writeAwardSummary(ws: Worksheet, model: ComparisonModel, first: number, detailWidth: number): void {
  const { S } = stylesFor(model.currency);
  const { award, suppliers, lines } = model;
  const A = AWARD_SUMMARY_ROWS;
  const n = lines.length;
  // Details are merged over the first page's remaining columns and wrapped: overflowing, they would print on the
  // pages of supplier groups.
  const lastCol = COMPARISON_COLS.quotes - 1;
  const detailCell = (x: Row, text: string, style: Partial<Style>): void => {
    put(x, 4, t(text), { ...style, alignment: { wrapText: true, vertical: 'top' } });
    ws.mergeCells(x.number, 4, x.number, lastCol);
    // ~0.8 characters of 11 pt text per width unit (bold and proportional text run wider than digits)
    const lines = Math.max(1, Math.ceil(text.length / Math.max(10, Math.floor(detailWidth * 0.8))));
    x.height = Math.min(409, lines * 15 + 2);
  };
  const row = (r: number, label: string, value: Decimal | undefined, detail: string): void => {
    const x = ws.getRow(first + r);
    put(x, 1, label, top(S.label));
    put(x, 3, num(value), top(S.moneyBold));
    detailCell(x, detail, S.text);
  };
  put(ws.getRow(first + A.title), 1, `Award summary (details on sheet "${SHEETS.award}")`, S.summaryTitle);
  const status = ws.getRow(first + A.status);
  put(status, 1, 'Award status', top(S.label));
  if (award.final) {
    put(status, 3, 'FINAL', top(S.winnerMark));
    detailCell(
      status,
      award.finalBecause === 'winning-quotation'
        ? 'the winning quotation of the completed RFQ'
        : 'every quotation has a qualification decision',
      S.text,
    );
  } else {
    put(status, 3, 'DRAFT', top(S.draft));
    detailCell(status, draftText(award.undecided, model.input.state), S.draft);
  }
  row(
    A.split,
    'Split award total',
    award.splitTotal,
    `${award.splitLinesCovered} of ${n} lines, each to its lowest qualified price`,
  );
  const single = award.bestSingle ? suppliers[award.bestSingle.supplier]! : undefined;
  row(
    A.bestSingle,
    'Best single supplier',
    award.bestSingle?.total,
    single ? `${single.name || `key ${single.key}`} (all lines)` : 'none: no qualified supplier quoted every line',
  );
  row(
    A.splitSaving,
    'Splitting saves',
    award.splitSaving,
    award.splitSavingPct !== undefined ? `${pctText(award.splitSavingPct)} of the best single supplier's total` : '',
  );
  const vsEstimate =
    award.estimatedTotal !== undefined && award.splitLinesCovered === n
      ? award.estimatedTotal.sub(award.splitTotal)
      : undefined;
  row(
    A.estimate,
    'Estimated total',
    award.estimatedTotal,
    vsEstimate !== undefined && award.estimatedTotal && !award.estimatedTotal.isZero()
      ? `split award is ${vsEstimate.isNegative() ? 'above' : 'below'} it by ${pctText(vsEstimate.abs().div(award.estimatedTotal))}`
      : '',
  );
  if (award.winner) {
    const w = suppliers[award.winner.supplier]!;
    row(
      A.winnerOrBasis,
      'Winner (completed)',
      award.winner.total,
      `${w.name || `key ${w.key}`}: ${award.winner.linesQuoted} of ${n} lines`,
    );
  } else {
    const x = ws.getRow(first + A.winnerOrBasis);
    put(x, 1, 'Award basis', S.label);
    put(x, 3, basisLabel(award.basis), S.text);
  }
  for (let r = A.title; r <= A.winnerOrBasis; r++) ws.getRow(first + r).commit();
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
  const { S } = stylesFor(model.currency);
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
}

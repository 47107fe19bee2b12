/**
 * The Comparison sheet: one row per RFQ line, one column group per quotation (unit price, line total, % of the line
 * mean, rank), the line statistics between them, and above them the supplier summaries (with the supplier's notes
 * and attachments) and the award's bottom line. This file sets the sheet up (views, print setup, column widths and
 * breaks) and writes its parts in order: comparison-header.ts, comparison-supplier-rows.ts, comparison-line-rows.ts,
 * comparison-award-summary.ts; comparison-layout.ts says where each part is.
 */
import type ExcelJS from 'exceljs';
import type { PageSetup, Worksheet } from 'exceljs';
import { writeAwardSummary } from './comparison-award-summary.ts';
import { writeHeaderBlock } from './comparison-header.ts';
import { COMPARISON_COLS, COMPARISON_ROWS, supplierColumn } from './comparison-layout.ts';
import { writeColumnHeaders, writeLineInfo, writeSupplierCells } from './comparison-line-rows.ts';
import { writeSupplierHeaders } from './comparison-supplier-rows.ts';
import { comparisonColumns } from './comparison-widths.ts';
import { writeSignOff, SIGN_OFF_ROWS } from './comparison-sign-off.ts';
import { supplierNotesText } from './comparison-supplier-rows.ts';
import { colBreaksXml, MARGINS, PAPER, printLayout, type PrintColumn, type PrintLayout } from './print-layout.ts';
import { colLetter, ROWS_PER_YIELD, SHEETS, yieldToLoop } from './sheet-common.ts';
import { columnWidthFor } from './text-width.ts';
import type { ComparisonModel, LineComparison } from './types.ts';
import { stylesFor } from './styles.ts';

export { COMPARISON_COLS, COMPARISON_ROWS, SUPPLIER_PARTS, supplierColumn } from './comparison-layout.ts';
export { supplierNotesText } from './comparison-supplier-rows.ts';
export { AWARD_SUMMARY_ROWS } from './comparison-award-summary.ts';

export async function writeComparisonSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  model: ComparisonModel,
): Promise<void> {
  const R = COMPARISON_ROWS;
  const C = COMPARISON_COLS;
  const columns = comparisonColumns(model);
  const widths = columns.map((c) => c.width);
  const lineHeights = model.lines.map((l) => lineHeight(model, l, widths));
  const print = comparisonPrintLayout(model, columns, lineHeights);
  const folded = new Set(print.folded);
  const shown = widths.map((w, i) => (folded.has(i + 1) ? 0 : w));
  const ws = wb.addWorksheet(SHEETS.comparison, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: R.columnHeader, activeCell: `C${R.firstLine}`, showGridLines: true }],
    properties: { outlineLevelCol: folded.size > 0 ? 1 : 0, defaultRowHeight: 15 },
    pageSetup: pageSetupOf(model, print),
    headerFooter: {
      oddFooter: `&L${rfqLabel(model)} quote comparison&RPage &P of &N`,
    },
  }) as Worksheet;
  addColumnBreaks(ws, print.breaksAfter);
  ws.columns = widths.map((width, i) => (folded.has(i + 1) ? { width, hidden: true, outlineLevel: 1 } : { width }));
  const lastDataCol = Math.max(
    COMPARISON_COLS.firstSupplier + model.suppliers.length * COMPARISON_COLS.perSupplier - 1,
    COMPARISON_COLS.lastSupplier,
  );
  if (model.lines.length > 0)
    ws.autoFilter = `A${R.columnHeader}:${colLetter(lastDataCol)}${R.columnHeader + model.lines.length}`;

  const st = stylesFor(model.currency);
  const span = (from: number): number => shown.slice(from - 1, C.quotes - 1).reduce((a, b) => a + b, 0);
  writeHeaderBlock(ws, model, st, span(1), span(4));
  writeSupplierHeaders(ws, model, st);
  writeColumnHeaders(ws, model, st);
  for (let r = R.title; r <= R.columnHeader; r++) ws.getRow(r).commit();
  for (const line of model.lines) {
    const row = ws.getRow(R.firstLine + line.index);
    if (lineHeights[line.index]! > LINE_PT) row.height = lineHeights[line.index]!;
    writeLineInfo(row, line, model);
    writeSupplierCells(row, line, model, st);
    row.commit();
    if ((line.index + 1) % ROWS_PER_YIELD === 0) await yieldToLoop();
  }
  const after = writeAwardSummary(ws, model, R.firstLine + model.lines.length + 1, span(4));
  if (model.input.signOff !== false) writeSignOff(ws, model, after + 1);
  ws.commit();
}

const LINE_PT = 15;
/** Rows below the lines: the award summary (up to 10 rows) and the sign-off block, with the gaps before them. */
const SUMMARY_PT = 10 * 18 + 15;
const SIGN_OFF_PT = SIGN_OFF_ROWS * 24 + 15;

/** A line's height: one text line, or as many as its wrapped product, specification or best supplier need. */
function lineHeight(model: ComparisonModel, line: LineComparison, widths: readonly number[]): number {
  const C = COMPARISON_COLS;
  const best = line.best !== undefined ? model.suppliers[line.best]!.name : '';
  const lines = Math.max(
    wrappedLines(line.product, widths[C.product - 1]!),
    wrappedLines(line.specification, widths[C.specification - 1]!),
    wrappedLines(best, widths[C.bestSupplier - 1]! - 3),
    wrappedLines(model.input.lastAwards?.[line.lineId]?.supplier ?? '', widths[C.lastSupplier - 1]! - 3),
  );
  return lines <= 1 ? LINE_PT : lines * 13 + 3;
}

/** Text lines `text` takes in a wrapping column `width` wide (Calibri 11). */
function wrappedLines(text: string, width: number): number {
  if (!text) return 1;
  return Math.max(1, Math.ceil(columnWidthFor(text) / Math.max(1, width - 0.5)));
}

function comparisonPrintLayout(
  model: ComparisonModel,
  columns: PrintColumn[],
  lineHeights: readonly number[],
): PrintLayout {
  const C = COMPARISON_COLS;
  return printLayout({
    columns,
    blockStarts: [C.externalId, C.quotes, ...model.suppliers.map((_s, si) => supplierColumn(si))],
    lines: model.lines.length,
    quotations: model.suppliers.length,
    rowsHeightPt:
      headerHeightPt(model) +
      lineHeights.reduce((a, b) => a + b, 0) +
      SUMMARY_PT +
      (model.input.signOff !== false ? SIGN_OFF_PT : 0),
    paper: model.input.paper ?? 'a4',
  });
}

/** Rows 1 to the column header, as comparison-header.ts and comparison-supplier-rows.ts size them (estimated). */
function headerHeightPt(model: ComparisonModel): number {
  const notes = Math.max(1, ...model.suppliers.map((s) => supplierNotesText(s).split('\n').length * 2));
  return 22 + 48 + 5 * 15 + 30 + 24 + Math.min(96, notes * 13 + 3) + 4 * 15 + 32;
}

function pageSetupOf(model: ComparisonModel, print: PrintLayout): Partial<PageSetup> {
  const R = COMPARISON_ROWS;
  const common: Partial<PageSetup> = {
    orientation: 'landscape',
    paperSize: PAPER[print.paper].code as PageSetup['paperSize'],
    printTitlesRow: `${R.supplierName}:${R.columnHeader}`,
    margins: { ...MARGINS },
  };
  return print.mode === 'one-page'
    ? { ...common, fitToPage: true, fitToWidth: 1, fitToHeight: 1 }
    : { ...common, scale: print.scale, printTitlesColumn: print.repeatColumns! };
}

function rfqLabel(model: ComparisonModel): string {
  const { rfq } = model.input;
  return rfq.rfq_no !== undefined ? `RFQ ${rfq.rfq_no}` : `RFQ id ${rfq._id}`;
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

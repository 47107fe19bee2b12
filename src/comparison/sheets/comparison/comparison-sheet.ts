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
import { writeSupplierHeaders, supplierNotesText } from './comparison-supplier-rows.ts';
import { comparisonColumns } from './comparison-widths.ts';
import { writeSignOff, SIGN_OFF_ROW_PT, SIGN_OFF_ROWS } from './comparison-sign-off.ts';
import { colBreaksXml, MARGINS, PAPER, printLayout, type PrintColumn, type PrintLayout } from '../print-layout.ts';
import { RowXmlWriter } from '../row-xml.ts';
import { colLetter, rowCells, ROWS_PER_YIELD, SHEETS, yieldToLoop, type RowCells } from '../sheet-common.ts';
import { columnWidthFor } from '../text-width.ts';
import type { ComparisonModel, LineComparison } from '../../types.ts';
import { stylesFor } from '../styles.ts';

export async function writeComparisonSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  model: ComparisonModel,
): Promise<void> {
  const R = COMPARISON_ROWS;
  const C = COMPARISON_COLS;
  const columns = comparisonColumns(model);
  const widths = columns.map((c) => c.width);
  const print = comparisonPrintLayout(model, columns);
  const folded = new Set(print.folded);
  const lineHeights = model.lines.map((l) => lineHeight(model, l, widths, folded));
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
  // The header block and the award summary span the first page's columns: on one page, every line column.
  const spanTo = print.mode === 'one-page' ? C.lastSupplier : C.quotes - 1;
  const span = (from: number): number => shown.slice(from - 1, spanTo).reduce((a, b) => a + b, 0);
  // In blocks the award summary follows the last line: page 1 gets the award and the ranking in brief.
  writeHeaderBlock(ws, model, st, span(1), span(4), spanTo, print.mode === 'blocks');
  writeSupplierHeaders(ws, model, st);
  writeColumnHeaders(ws, model, st);
  for (let r = R.title; r <= R.columnHeader; r++) ws.getRow(r).commit();
  const xml = new RowXmlWriter(wb, ws);
  for (const line of model.lines) {
    const number = R.firstLine + line.index;
    const height = lineHeights[line.index]! > LINE_PT ? lineHeights[line.index]! : undefined;
    // A line with documents notes them on its unit prices: exceljs writes the notes.
    const row = model.suppliers.some((s) => s.lineDocuments?.has(line.index))
      ? exceljsRow(ws, number, height)
      : xml.row(number, height);
    writeLineInfo(row, line, model);
    writeSupplierCells(row, line, model, st);
    row.commit();
    if ((line.index + 1) % ROWS_PER_YIELD === 0) await yieldToLoop();
  }
  const summaryAt = R.firstLine + model.lines.length + 1;
  const beside = print.mode === 'one-page' && model.suppliers.length >= 2;
  // Beside the award summary on one page (rows 2-4 of the summary, the supplier columns), else below it.
  if (model.input.signOff !== false && beside)
    writeSignOff(ws, model, summaryAt + 2, C.firstSupplier, lastDataCol, false);
  const after = writeAwardSummary(ws, model, summaryAt, span(4), spanTo);
  if (model.input.signOff !== false && !beside) writeSignOff(ws, model, after + 1, 1, spanTo);
  ws.commit();
}

function exceljsRow(ws: Worksheet, number: number, height: number | undefined): RowCells & { commit(): void } {
  const row = ws.getRow(number);
  if (height !== undefined) row.height = height;
  return { ...rowCells(row), commit: () => row.commit() };
}

const LINE_PT = 15;
/** Rows below the lines: the award summary (up to 10 rows) and the sign-off block, with the gaps before them. */
const SUMMARY_PT = 10 * 17 + 15;
const SIGN_OFF_PT = SIGN_OFF_ROWS * SIGN_OFF_ROW_PT + 15;

/**
 * A line's height: one text line, or as many as its wrapped product, specification or best supplier need (text in
 * a folded column wraps nothing).
 */
function lineHeight(
  model: ComparisonModel,
  line: LineComparison,
  widths: readonly number[],
  folded: ReadonlySet<number>,
): number {
  const C = COMPARISON_COLS;
  const best = line.best !== undefined ? model.suppliers[line.best]!.name : '';
  const wraps = (col: number, text: string, indent = 0): number =>
    folded.has(col) ? 1 : wrappedLines(text, widths[col - 1]! - indent);
  const lines = Math.max(
    wraps(C.product, line.product),
    wraps(C.specification, line.specification),
    wraps(C.bestSupplier, best, 2),
    wraps(C.lastSupplier, model.input.lastAwards?.[line.lineId]?.supplier ?? '', 2),
  );
  return lines <= 1 ? LINE_PT : lines * 13 + 3;
}

/** Text lines `text` takes in a wrapping column `width` wide (Calibri 11). */
function wrappedLines(text: string, width: number): number {
  if (!text) return 1;
  return Math.max(1, Math.ceil(columnWidthFor(text) / Math.max(1, width)));
}

function comparisonPrintLayout(model: ComparisonModel, columns: PrintColumn[]): PrintLayout {
  const C = COMPARISON_COLS;
  const widths = columns.map((c) => c.width);
  return printLayout({
    columns,
    blockStarts: [C.externalId, C.quotes, ...model.suppliers.map((_s, si) => supplierColumn(si))],
    lines: model.lines.length,
    quotations: model.suppliers.length,
    // One page puts the sign-off beside the award summary (comparison-sign-off.ts).
    rowsHeightPt: (folded) =>
      headerHeightPt(model) +
      model.lines.reduce((a, l) => a + lineHeight(model, l, widths, folded), 0) +
      SUMMARY_PT +
      (model.input.signOff !== false && model.suppliers.length < 2 ? SIGN_OFF_PT : 0),
    paper: model.input.paper ?? 'a4',
  });
}

/** Rows 1 to the column header, as comparison-header.ts and comparison-supplier-rows.ts size them (estimated). */
function headerHeightPt(model: ComparisonModel): number {
  const notes = Math.max(1, ...model.suppliers.map((s) => supplierNotesText(s).split('\n').length * 2));
  return 22 + 32 + 5 * 15 + 30 + 24 + Math.min(96, notes * 13 + 3) + 4 * 15 + 32;
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

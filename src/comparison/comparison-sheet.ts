/**
 * The Comparison sheet: one row per RFQ line, one column group per quotation (unit price, line total, % of the line
 * mean, rank), the line statistics between them, and above them the supplier summaries (with the supplier's notes
 * and attachments) and the award's bottom line. This file sets the sheet up (views, print setup, column widths and
 * breaks) and writes its parts in order: comparison-header.ts, comparison-supplier-rows.ts, comparison-line-rows.ts,
 * comparison-award-summary.ts; comparison-layout.ts says where each part is.
 */
import type ExcelJS from 'exceljs';
import type { Worksheet } from 'exceljs';
import { writeAwardSummary } from './comparison-award-summary.ts';
import { writeHeaderBlock } from './comparison-header.ts';
import { COMPARISON_COLS, COMPARISON_ROWS, supplierColumn } from './comparison-layout.ts';
import { writeColumnHeaders, writeLineInfo, writeSupplierCells } from './comparison-line-rows.ts';
import { writeSupplierHeaders } from './comparison-supplier-rows.ts';
import { colBreaksXml, printLayout } from './print-layout.ts';
import {
  clamp,
  colLetter,
  moneyWidth,
  numberWidth,
  ROWS_PER_YIELD,
  SHEETS,
  textWidth,
  yieldToLoop,
} from './sheet-common.ts';
import type { ComparisonModel } from './types.ts';
import { stylesFor } from './styles.ts';

export { COMPARISON_COLS, COMPARISON_ROWS, SUPPLIER_PARTS, supplierColumn } from './comparison-layout.ts';
export { supplierNotesText } from './comparison-supplier-rows.ts';
export { AWARD_SUMMARY_ROWS } from './comparison-award-summary.ts';

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

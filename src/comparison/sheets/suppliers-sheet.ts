/**
 * The Suppliers sheet: one row per quotation, in the column order of the Comparison sheet; below them, the vendors
 * following the RFQ's category who did not quote, with the contact the vendor directory gives, to chase before the
 * award.
 */
import type ExcelJS from 'exceljs';
import type { PageSetup, Row, Style, Worksheet } from 'exceljs';
import { readableSetup } from './print-layout.ts';
import { numberWidth } from './text-width.ts';
import { responseText } from '../responses.ts';
import { excelDateInZone } from './dates.ts';
import { clamp, decisionLabel, num, put, rfqHeading, SHEETS, t, textWidth, wrappedHeight } from './sheet-common.ts';
import type { ComparisonModel } from '../types.ts';
import { formats, stylesFor } from './styles.ts';

export function writeSuppliersSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): void {
  const { S } = stylesFor(model.currency);
  const { suppliers, timeZone, lines } = model;
  const nameWidth = clamp(Math.max(0, ...suppliers.map((s) => textWidth(s.name))) + 2, 18, 40);
  // The totals as formatted (currency, thousands): a number too wide for its column prints as `###`.
  const FMT = formats(model.currency);
  const wTotal = Math.max(16, ...suppliers.map((s) => numberWidth(s.total.toNumber(), FMT.money)));
  // Notes and attachments wrap in their columns; the sheet prints readable (print-layout.ts readableSetup).
  const widths = [8, nameWidth, 12, 16, 9, 9, 18, 9, 9, 10, wTotal, 12, 11, 50, 30];
  const ws = wb.addWorksheet(SHEETS.suppliers, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: 3 }],
    pageSetup: {
      orientation: 'landscape',
      ...(readableSetup(widths, model.input.paper ?? 'a4') as Partial<PageSetup>),
      printTitlesRow: '3:3',
      printTitlesColumn: 'A:B',
    },
  }) as Worksheet;
  ws.columns = widths.map((width) => ({ width }));
  if (suppliers.length > 0) ws.autoFilter = `A3:O${3 + suppliers.length}`;
  put(ws.getRow(1), 1, t(`Suppliers · ${rfqHeading(model)}`), S.title);
  put(
    ws.getRow(2),
    1,
    `One row per quotation, in the column order of the Comparison sheet. Dates in ${timeZone}.`,
    S.subtitle,
  );
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
    'Attachments',
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
    const attachments = s.attachmentNames.join('\n');
    put(row, 15, attachments ? t(attachments) : null, S.wrap);
    row.height = Math.max(wrappedHeight(s.notes ?? '', 60), wrappedHeight(attachments, 40));
    row.commit();
  });
  if (suppliers.length === 0) {
    const row = ws.getRow(4);
    put(row, 2, 'No quotations received.', S.textMuted);
    row.commit();
  }
  writeNotQuoted(ws, model, 4 + Math.max(1, suppliers.length) + 1);
  ws.commit();
}

/** Columns of the vendors-who-did-not-quote block (merged where the quotation columns are narrow). */
export const NOT_QUOTED_COLS = { vendor: 2, id: 3, contact: [4, 5], email: [6, 9], phone: [10, 11] } as const;

/** The vendors following the category who did not quote, from row `first` on (title, header, one row each). */
function writeNotQuoted(ws: Worksheet, model: ComparisonModel, first: number): void {
  const r = model.responses;
  if (!r) return;
  const { S } = stylesFor(model.currency);
  const C = NOT_QUOTED_COLS;
  const cells = (row: Row, values: [string, string, string, string, string], style: Partial<Style>): void => {
    put(row, C.vendor, values[0], style);
    put(row, C.id, values[1], style);
    for (const [[from, to], value] of [
      [C.contact, values[2]],
      [C.email, values[3]],
      [C.phone, values[4]],
    ] as const) {
      put(row, from, value, style);
      for (let c = from + 1; c <= to; c++) put(row, c, null, style);
      ws.mergeCells(row.number, from, row.number, to);
    }
  };
  const title = ws.getRow(first);
  const who = r.category !== undefined ? `"${r.category}"` : 'its category';
  put(title, 1, t(`Vendors following ${who} who did not quote · ${responseText(r)}`), S.summaryTitle);
  title.commit();
  if (r.unavailable !== undefined || r.notQuoted.length === 0) return;
  const hdr = ws.getRow(first + 1);
  cells(hdr, ['Vendor', 'Vendor id', 'Contact person', 'E-mail', 'Phone'], S.colHeader);
  hdr.commit();
  r.notQuoted.forEach((v, i) => {
    const row = ws.getRow(first + 2 + i);
    cells(row, [t(v.name), t(v.id), t(v.contact), t(v.email), t(v.phone)], S.text);
    row.commit();
  });
}

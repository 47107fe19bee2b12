/** The Notes sheet: every note of the comparison, one row each. */
import type ExcelJS from 'exceljs';
import type { PageSetup, Worksheet } from 'exceljs';
import { readableSetup } from './print-layout.ts';
import { put, rfqHeading, SHEETS, t, wrappedHeight } from './sheet-common.ts';
import type { ComparisonModel } from '../types.ts';
import { stylesFor } from './styles.ts';

/** Topic and note; notes wrap (a page holds both columns at 100 % on A4 and Letter). */
const WIDTHS = [26, 110];

export function writeNotesSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): void {
  const { S } = stylesFor(model.currency);
  const ws = wb.addWorksheet(SHEETS.notes, {
    views: [{ state: 'frozen', ySplit: 2 }],
    pageSetup: {
      orientation: 'landscape',
      ...(readableSetup(WIDTHS, model.input.paper ?? 'a4') as Partial<PageSetup>),
    },
  }) as Worksheet;
  ws.columns = WIDTHS.map((width) => ({ width }));
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
    row.height = wrappedHeight(note.text, WIDTHS[1]!);
    row.commit();
  });
  ws.commit();
}

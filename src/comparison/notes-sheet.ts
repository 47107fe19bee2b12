/** The Notes sheet: every note of the comparison, one row each. */
import type ExcelJS from 'exceljs';
import type { Worksheet } from 'exceljs';
import { put, rfqHeading, SHEETS, t, wrappedHeight } from './sheet-common.ts';
import type { ComparisonModel } from './types.ts';
import { stylesFor } from './styles.ts';

export function writeNotesSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): void {
  const { S } = stylesFor(model.currency);
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

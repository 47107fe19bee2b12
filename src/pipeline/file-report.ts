/**
 * The report of a file that was not read row by row: a duplicate (same bytes seen before) or a refused file
 * (unreadable, no mapping fits). Same place and format as the ingest report (outbox/reports/, xlsx, written
 * atomically), one sheet saying what happened and why.
 */
import ExcelJS from 'exceljs';
import { writeAtomically } from '../atomic-write.ts';
import { safeCellText } from '../spreadsheet-safety.ts';

export interface FileNotice {
  /** The file's name as dropped. */
  file: string;
  status: 'duplicate' | 'refused';
  sha256: string;
  /** One sentence each: what happened and why. */
  notes: string[];
}

export async function writeFileNoticeReport(outPath: string, n: FileNotice): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('File');
  ws.columns = [
    { header: 'Item', key: 'item', width: 14 },
    { header: 'Value', key: 'value', width: 120 },
  ];
  ws.getRow(1).font = { bold: true };
  ws.addRow({ item: 'File', value: safeCellText(n.file) });
  ws.addRow({ item: 'Status', value: n.status });
  ws.addRow({ item: 'sha256', value: n.sha256 });
  for (const note of n.notes) ws.addRow({ item: 'Note', value: safeCellText(note) });
  await writeAtomically(outPath, async (tmp) => {
    await wb.xlsx.writeFile(tmp);
  });
}

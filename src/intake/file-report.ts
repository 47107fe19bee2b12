/**
 * The report of a file that was not read row by row: a duplicate (same bytes seen before) or a refused file
 * (unreadable, no mapping fits). Same place and format as the ingest report (outbox/reports/, xlsx, written
 * atomically), one sheet saying what happened and why.
 */
import { loadExcelJS, writeAtomically, safeCellText } from '../core/index.ts';

export interface FileNotice {
  /** The file's name as dropped. */
  file: string;
  status: 'duplicate' | 'refused' | 'held';
  sha256: string;
  /** One sentence each: what happened and why. */
  notes: string[];
}

const STATUS_TEXT: Record<FileNotice['status'], string> = {
  duplicate: 'duplicate file, not read',
  refused: 'refused, not read',
  held: 'held in the inbox, not read: its mapping profile is broken',
};

export async function writeFileNoticeReport(outPath: string, n: FileNotice): Promise<void> {
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  wb.creator = 'rfq-sync';
  // Laid out like the Summary sheet of the ingest report (src/ingest/ingest-report.ts): label, value.
  // One page wide when printed: without fitToPage the value column falls on page 2 and page 1 shows labels only.
  const ws = wb.addWorksheet('Summary', {
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  ws.columns = [{ width: 28 }, { width: 120 }];
  ws.addRow(['File', safeCellText(n.file)]);
  ws.addRow(['Status', STATUS_TEXT[n.status]]);
  ws.addRow(['sha256', n.sha256]);
  for (const note of n.notes) ws.addRow(['Note', safeCellText(note)]);
  ws.getColumn(1).font = { bold: true };
  ws.getColumn(1).alignment = { vertical: 'top' };
  ws.getColumn(2).alignment = { vertical: 'top', wrapText: true };
  await writeAtomically(outPath, async (tmp) => {
    await wb.xlsx.writeFile(tmp);
  });
}

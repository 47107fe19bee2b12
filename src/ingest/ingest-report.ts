/**
 * The per-file report (outbox/reports/), an xlsx for procurement and IT: a summary sheet (profile and why, counts,
 * notes) and a rows sheet: per row its requisition and status, and for problems the column, value and reason.
 * Every text from the input goes through safeCellText (no formula injection); written atomically.
 */
import type ExcelJS from 'exceljs';
import { loadExcelJS, writeAtomically, safeCellText } from '../core/index.ts';
import { type IngestSummary, emptySummary } from './ingest-file.ts';
import { MAX_REPORTED } from './row-report.ts';

const STATUS_TEXT: Record<string, string> = {
  ok: 'ok',
  warning: 'ok, with warning',
  rejected: 'rejected',
  held: 'held back (another row of its requisition is rejected)',
  skipped: 'skipped',
};

/** A summary for a file that was refused whole, so it gets a report too (its reason as the one note). */
export function refusedFileSummary(file: string, reason: string): IngestSummary {
  return emptySummary(file, '(none)', `file refused: ${reason}`);
}

/** A re-export's change to a requisition whose RFQ exists (src/requisitions/reexport-changes.ts, same shape). */
export interface ReportedChange {
  requisition: string;
  rfqId: number;
  subject: string;
  field: string;
  was: string | number | null;
  now: string | number | null;
  action: string;
}

export async function writeIngestReport(
  summary: IngestSummary,
  outPath: string,
  extra?: { notes?: string[]; changes?: readonly ReportedChange[] },
): Promise<void> {
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  wb.creator = 'rfq-sync';
  // Printed (or opened in LibreOffice's print view) on one page width: without fitToPage the long second column
  // lands on page 2 and page 1 shows only the labels.
  const pageSetup = { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 } as const;
  const s = wb.addWorksheet('Summary', { pageSetup });
  s.columns = [{ width: 28 }, { width: 90 }];
  const kv: [string, string | number][] = [
    ['File', safeCellText(summary.file)],
    ['Mapping profile', safeCellText(summary.profile)],
    ['Why this profile', safeCellText(summary.profileReason)],
    ['Requisitions to create', summary.requisitions],
    ['Lines to create', summary.lines],
    ['Requisitions held back', summary.heldRequisitions],
    ['Rejected rows', summary.rejectedRows],
    ['Warnings', summary.warnings],
    ...(summary.skippedRows > 0
      ? [
          ['Rows skipped', `${summary.skippedRows} (the profile's skip_rows: totals rows, not requisition lines)`] as [
            string,
            string,
          ],
        ]
      : []),
  ];
  if (summary.truncated) {
    const first = MAX_REPORTED.toLocaleString('en-US');
    const cut = summary.problemsNotShown;
    const rows = summary.rows.length >= MAX_REPORTED ? `the first ${first} rows` : 'every row';
    kv.push([
      'Note',
      cut > 0
        ? `Listed: ${rows} and the first ${first} problems (${cut.toLocaleString('en-US')} more problems not shown).`
        : `Listed: ${rows} and every problem.`,
    ]);
  }
  for (const n of [...summary.notes, ...(extra?.notes ?? [])]) kv.push(['Note', safeCellText(n)]);
  for (const [k, v] of kv) s.addRow([k, v]);
  s.getColumn(1).font = { bold: true };
  s.getColumn(1).alignment = { vertical: 'top' };
  s.getColumn(2).alignment = { vertical: 'top', horizontal: 'left', wrapText: true };

  const r = tableSheet(wb, 'Rows', pageSetup, [
    ['Row', 8],
    ['Requisition', 18],
    ['Status', 22],
    ['Severity', 10],
    ['Column', 22],
    ['Value', 28],
    ['Reason', 90],
  ]);
  r.getColumn(1).alignment = { horizontal: 'center' };
  r.getColumn(7).alignment = { vertical: 'top', wrapText: true };
  const rows = [...summary.rows].sort((a, b) => a.row - b.row);
  for (const row of rows) {
    const base = [row.row, safeCellText(row.requisition ?? ''), STATUS_TEXT[row.status] ?? row.status];
    if (row.problems.length === 0) r.addRow([...base, '', '', '', safeCellText(row.note ?? '')]);
    for (const p of row.problems)
      r.addRow([...base, p.severity, safeCellText(p.column), safeCellText(p.value), safeCellText(p.reason)]);
  }
  if (rows.length > 0) r.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: 7 } };
  if (extra?.changes && extra.changes.length > 0) {
    const c = tableSheet(wb, 'Changes', pageSetup, [
      ['Requisition', 22],
      ['RFQ', 10],
      ['Line (external_id) or header', 24],
      ['Field', 16],
      ['Was (in the RFQ)', 28],
      ['Now (in this file)', 28],
      ['What happens', 60],
    ]);
    for (const x of extra.changes)
      c.addRow([
        safeCellText(x.requisition),
        x.rfqId,
        safeCellText(x.subject),
        x.field,
        cellOf(x.was),
        cellOf(x.now),
        x.action,
      ]);
  }
  await writeAtomically(outPath, (tmp) => wb.xlsx.writeFile(tmp));
}

/** A sheet with a bold header row of these columns (header, width), frozen on screen and repeated on each printed page. */
function tableSheet(
  wb: ExcelJS.Workbook,
  name: string,
  pageSetup: Partial<ExcelJS.PageSetup>,
  columns: readonly (readonly [header: string, width: number])[],
): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, { pageSetup: { ...pageSetup, printTitlesRow: '1:1' } });
  ws.columns = columns.map(([header, width]) => ({ header, width }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return ws;
}

function cellOf(v: string | number | null): string | number {
  return v === null ? '(none)' : typeof v === 'number' ? v : safeCellText(v);
}

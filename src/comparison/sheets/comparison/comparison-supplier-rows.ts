/**
 * The supplier rows of the Comparison sheet's header: per supplier group its name, key and decision, notes and
 * attachments, total, coverage, rank by total and deviation from the best total.
 */
import type { Row, Style, Worksheet } from 'exceljs';
import { COMPARISON_COLS, COMPARISON_ROWS, supplierColumn } from './comparison-layout.ts';
import { decisionLabel, headerKind, num, put, SHEETS, t, type Value } from '../sheet-common.ts';
import type { ComparisonModel, SupplierSummary } from '../../types.ts';
import type { Styles, SupplierHeaderKind } from '../styles.ts';

/** Notes longer than this are cut in the group header (all of them are on the Suppliers sheet). */
const NOTES_IN_HEADER = 240;

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

export function writeSupplierHeaders(ws: Worksheet, model: ComparisonModel, { S, GROUP_HEADER }: Styles): void {
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

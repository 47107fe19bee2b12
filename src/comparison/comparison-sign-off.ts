/**
 * The sign-off block below the award summary of the Comparison sheet: "Evaluated by", "Approved by", "Date", each
 * with a line to sign on, in the columns every page repeats, so it prints on the sheet's last page (on a one-page
 * print, that page). COMPARISON_SIGN_OFF=false leaves it out.
 */
import type { Worksheet } from 'exceljs';
import { COMPARISON_COLS } from './comparison-layout.ts';
import { put } from './sheet-common.ts';
import type { ComparisonModel } from './types.ts';
import { stylesFor } from './styles.ts';

export const SIGN_OFF_LABELS = ['Evaluated by', 'Approved by', 'Date'] as const;
export const SIGN_OFF_ROWS = SIGN_OFF_LABELS.length;

/** Writes the block from row `first`; returns the row after it. */
export function writeSignOff(ws: Worksheet, model: ComparisonModel, first: number): number {
  const { S } = stylesFor(model.currency);
  SIGN_OFF_LABELS.forEach((label, i) => {
    const row = ws.getRow(first + i);
    row.height = 24;
    put(row, 1, label, S.signOff);
    // the line to sign on: the rest of the repeated columns and the first page's
    for (let c = 2; c < COMPARISON_COLS.quotes; c++) put(row, c, null, S.signOff);
    row.commit();
  });
  return first + SIGN_OFF_ROWS;
}

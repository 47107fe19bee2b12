/**
 * The sign-off block of the Comparison sheet: "Evaluated by", "Approved by", "Date", each with a line to sign on,
 * on the sheet's last printed page. On a one-page print it stands beside the award summary, in the supplier
 * columns (the page has no height to spare); otherwise below the summary, in the columns every page repeats.
 * COMPARISON_SIGN_OFF=false leaves it out.
 */
import type { Worksheet } from 'exceljs';
import { COMPARISON_COLS } from './comparison-layout.ts';
import { put } from '../sheet-common.ts';
import type { ComparisonModel } from '../../types.ts';
import { stylesFor } from '../styles.ts';

export const SIGN_OFF_LABELS = ['Evaluated by', 'Approved by', 'Date'] as const;
export const SIGN_OFF_ROWS = SIGN_OFF_LABELS.length;
export const SIGN_OFF_ROW_PT = 22;

/**
 * Writes the block's cells from row `first`, the label in `fromCol` and the line to `toCol`; rows below the last
 * written ones are committed (`commit`), rows shared with the award summary are left to it.
 */
export function writeSignOff(
  ws: Worksheet,
  model: ComparisonModel,
  first: number,
  fromCol = 1,
  toCol: number = COMPARISON_COLS.quotes - 1,
  commit = true,
): number {
  const { S } = stylesFor(model.currency);
  SIGN_OFF_LABELS.forEach((label, i) => {
    const row = ws.getRow(first + i);
    row.height = Math.max(row.height ?? 0, SIGN_OFF_ROW_PT);
    put(row, fromCol, label, S.signOff);
    for (let c = fromCol + 1; c <= toCol; c++) put(row, c, null, S.signOff);
    if (commit) row.commit();
  });
  return first + SIGN_OFF_ROWS;
}

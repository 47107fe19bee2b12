/**
 * The Comparison sheet of the workbook: its layout, header block, supplier rows, line rows, award summary, sign-off
 * and column widths, one file per part.
 */
export { COMPARISON_COLS, COMPARISON_ROWS } from './comparison-layout.ts';
export { writeComparisonSheet } from './comparison-sheet.ts';

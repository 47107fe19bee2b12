/**
 * Renders a ComparisonModel into an .xlsx with exceljs' streaming writer (rows are committed as they are written,
 * so 5,000 lines x 50 suppliers stay within a small, flat memory budget). Only values are written, never formulas
 * or hyperlinks; every text that came from the service or the ERP export goes through safeCellText. One file per
 * sheet: comparison/comparison-sheet.ts, suppliers-sheet.ts, award-sheet.ts, notes-sheet.ts.
 */
import { join } from 'node:path';
import { writeAtomically, UnexpectedError } from '../../core/index.ts';
import { writeAwardSheet } from './award-sheet.ts';
import { COMPARISON_COLS, writeComparisonSheet } from './comparison/index.ts';
import { buildComparison } from '../model.ts';
import { workbookWriter, writeStreamedFile } from './file-stream.ts';
import { writeNotesSheet } from './notes-sheet.ts';
import type { OutputWriter } from '../output-writer.ts';
import { EXCEL_MAX_COLUMNS } from './sheet-common.ts';
import { writeSuppliersSheet } from './suppliers-sheet.ts';
import type { ComparisonInput, ComparisonModel } from '../types.ts';

/** Streams the workbook for an already built model to `filePath` (not atomic: see writeComparisonWorkbook). */
export async function writeComparisonModel(model: ComparisonModel, filePath: string): Promise<void> {
  // Checked before a file is opened: Excel cannot hold more columns than this, whatever we would write.
  const lastCol = COMPARISON_COLS.firstSupplier + model.suppliers.length * COMPARISON_COLS.perSupplier - 1;
  if (lastCol > EXCEL_MAX_COLUMNS) {
    throw new UnexpectedError(
      `${model.suppliers.length} quotations need ${lastCol} columns; a worksheet holds at most ${EXCEL_MAX_COLUMNS}`,
    );
  }
  // A file stream watched from its first byte: exceljs alone would wait forever on one that fails early.
  await writeStreamedFile(filePath, async (file) => {
    const wb = await workbookWriter(file, model.input.generatedAt);
    await writeComparisonSheet(wb, model);
    writeSuppliersSheet(wb, model);
    await writeAwardSheet(wb, model);
    writeNotesSheet(wb, model);
    await wb.commit();
  });
}

/** Builds the comparison and writes it to `outPath` atomically (temporary name, then rename). */
export async function writeComparisonWorkbook(input: ComparisonInput, outPath: string): Promise<void> {
  await workbookOutput.write(buildComparison(input), outPath);
}

/** The comparison workbook, every version: outbox/comparisons/. */
export const workbookOutput: OutputWriter = {
  name: 'workbook',
  paths: (_model, place) => [join(place.folders.comparisons, place.names.workbook)],
  write: (model, path) => writeAtomically(path, (tmp) => writeComparisonModel(model, tmp)),
};

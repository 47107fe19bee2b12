/**
 * The workbooks' rendering: the comparison workbook's sheets (Comparison, Suppliers, Award, Notes), the overview's
 * Prices sheet, their shared styles, text widths, print layout and Excel dates, over exceljs' streaming writer.
 */
export { excelDateInZone } from './dates.ts';
export { workbookWriter, writeStreamedFile } from './file-stream.ts';
export { writePricesSheet, type PriceHistoryEntry } from './prices-sheet.ts';
export { defaultPaper } from './print-layout.ts';
export { colLetter } from './sheet-common.ts';
export { COLOR, stylesFor } from './styles.ts';
export { writeComparisonModel, writeComparisonWorkbook, workbookOutput } from './workbook.ts';

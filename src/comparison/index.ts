/** The quote comparison workbook and the ERP award file (issue 7). */
export { buildComparison } from './model.ts';
export type {
  AwardBasis,
  AwardSummary,
  ComparisonInput,
  ComparisonModel,
  ComparisonNote,
  LineComparison,
  SupplierDecision,
  SupplierSummary,
} from './model.ts';
export { writeComparisonWorkbook, writeComparisonModel } from './workbook.ts';
export { writeAwardCsv, writeAwardCsvFromModel, awardCsv, AWARD_CSV_COLUMNS } from './award-csv.ts';
export { writeComparisonFiles } from './write-both.ts';
export { comparisonFileNames } from './file-names.ts';

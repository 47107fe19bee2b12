/** The quote comparison workbook and the ERP award file: docs/comparison.md#the-quote-comparison-workbook-and-the-award-file. */
export { buildComparison } from './model.ts';
export type {
  AwardBasis,
  PriceBasis,
  PriceBasisWarning,
  AwardSummary,
  CategoryVendors,
  ComparisonInput,
  ComparisonModel,
  ComparisonNote,
  LineComparison,
  SupplierDecision,
  SupplierSummary,
  VendorContact,
} from './types.ts';
export { resolveErpIds, type PostedLine } from './erp-line-ids.ts';
export { writeComparisonWorkbook, writeComparisonModel } from './workbook.ts';
export { writeAwardCsv, writeAwardCsvFromModel, awardCsv, AWARD_CSV_COLUMNS } from './award-csv.ts';
export {
  awardFileWriter,
  workbookWriter,
  writeComparisonFiles,
  writeComparisonOutputs,
  type OutputWriter,
} from './outputs.ts';
export { comparisonFileNames } from './file-names.ts';

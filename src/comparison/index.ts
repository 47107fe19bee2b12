/**
 * The quote comparison procurement signs and the award file the ERP imports: the model in decimal stages, the award
 * rules, the workbook's sheets and print layout (docs/comparison.md).
 */
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
  LastAward,
  LineComparison,
  SupplierDecision,
  SupplierSummary,
  VendorContact,
} from './types.ts';
export { resolveErpIds, type PostedLine } from './erp-line-ids.ts';
export { writeComparisonWorkbook, writeComparisonModel, workbookOutput } from './sheets/index.ts';
export { writeAwardCsv, writeAwardCsvFromModel, awardCsv, awardFileOutput, AWARD_CSV_COLUMNS } from './award-csv.ts';
export { comparisonOutputs, writeComparisonFiles, writeComparisonOutputs } from './outputs.ts';
export { erpAwardOf, erpOutput, erpPlanOf } from './erp-output.ts';
export type { OutputPlace, OutputWriter, WrittenFile } from './output-writer.ts';
export { awardRules, type AwardContext, type AwardRule } from './award/index.ts';
export { comparisonFileNames } from './file-names.ts';
export {
  comparisonSummary,
  type ComparisonSummary,
  type OverviewRow,
  sortOverviewRows,
  writeOverview,
} from './overview.ts';
export { defaultPaper } from './sheets/index.ts';
export { productKey } from './product-key.ts';

/**
 * Awarding, after the RFQs close: the quotation pulls and their snapshots, the comparison runs and their versions and
 * revisions, the workbooks, award files and the ERP's purchase-order files written (held while a winner lacks an ERP
 * vendor), the price history, and the overview's rows.
 */
export { writeComparisonNow } from './compare-now.ts';
export { runComparison, type ComparisonResult } from './comparison-runner.ts';
export type { AwardingConfig, AwardingContext } from './context.ts';
export { type HeldErpFiles, heldErpFiles } from './erp-held.ts';
export { releaseHeldErpFiles } from './erp-hold.ts';
export { type OverviewWritten, writeAccountOverview } from './overview.ts';
export { runQuotations, type QuotationsContext, type QuotationsResult } from './quotations-runner.ts';
export { loadSnapshot } from './snapshot.ts';

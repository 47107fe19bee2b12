/**
 * Awarding, after the RFQs close: the quotation pulls and their snapshots, the comparison runs and their versions and
 * revisions, the workbooks and award files written, the price history, and the overview's rows.
 */
export { writeComparisonNow } from './compare-now.ts';
export { runComparison, type ComparisonResult } from './comparison-runner.ts';
export type { AwardingConfig, AwardingContext } from './context.ts';
export { type OverviewWritten, writeAccountOverview } from './overview.ts';
export { runQuotations, type QuotationsContext, type QuotationsResult } from './quotations-runner.ts';
export { loadSnapshot } from './snapshot.ts';

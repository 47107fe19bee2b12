/**
 * Following each RFQ after it is created: polls of the lists and webhook hints, transitions, quotation pulls, the
 * comparison runs and their versions, the overview, price history.
 */
export { trackRfq } from './rfq-tracker.ts';
export { runPoll, lastPoll, lastSuccessfulPollAt, pollHistory, type PollResult } from './poll-runner.ts';
export { runQuotations, type QuotationsResult } from './quotations-runner.ts';
export { runComparison, type ComparisonResult } from './comparison-runner.ts';
export { trackingStatus, pendingWork, trackedRfq, type TrackingStatus, type PendingWork } from './status.ts';
export { writeComparisonNow } from './compare-now.ts';
export { handleServiceError, deferWhilePaused } from './service-errors.ts';
export type { TrackedRfq, TrackedState, Transition } from './transitions.ts';
export type { TrackingContext } from './context.ts';
export { auditIdentity } from './audit-identity.ts';
export { trackingStore } from './context.ts';
export { actOnWebhook, hintIds, type HintOutcome } from './hint-check.ts';
export { closeToWorkbook, hintFigures, type HintFigures, type LatencyHistogram, quantileBound } from './hint-stats.ts';
export { type OverviewWritten, writeAccountOverview } from './overview.ts';
export { type PollSchedule, startPollSchedule } from './poll-schedule.ts';
export { isWebhookSlot } from './poll-wake.ts';
export type { QuotationsContext } from './quotations-runner.ts';
export type { ServiceErrorContext } from './service-errors.ts';
export { loadSnapshot } from './snapshot.ts';
export { traceState } from './trace-state.ts';
export { MAX_TRANSITIONS, type WrittenComparison } from './transitions.ts';
export { type WithheldAward, withheldAwards } from './withheld-awards.ts';
export { releaseHeldErpFiles } from './erp-hold.ts';
export { type HeldErpFiles, heldErpFiles } from './erp-held.ts';

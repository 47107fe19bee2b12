/** Public surface of RFQ tracking (polling, quotations, comparison versions). */
export { trackRfq } from './rfq-tracker.ts';
export { runPoll, lastPoll, lastSuccessfulPollAt, pollHistory, type PollResult } from './poll-runner.ts';
export { runQuotations, type QuotationsResult } from './quotations-runner.ts';
export { runComparison, type ComparisonResult } from './comparison-runner.ts';
export { trackingStatus, pendingWork, trackedRfq, type TrackingStatus, type PendingWork } from './status.ts';
export { writeComparisonNow } from './compare-now.ts';
export { handleServiceError, deferWhilePaused } from './service-errors.ts';
export type { TrackedRfq, TrackedState, Transition } from './transitions.ts';
export type { TrackingContext } from './context.ts';

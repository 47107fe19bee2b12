/**
 * Following each RFQ after it is created: polls of the lists and webhook hints, and the transitions they find, which
 * queue the quotation pulls.
 */
export { trackRfq } from './rfq-tracker.ts';
export {
  actOnWebhook,
  hintIds,
  type HintOutcome,
  lastPoll,
  lastSuccessfulPollAt,
  pollHistory,
  type PollOverview,
  type PollResult,
  type PollSchedule,
  runPoll,
  startPollSchedule,
} from './poll/index.ts';
export { trackingStatus, pendingWork, trackedRfq, type TrackingStatus, type PendingWork } from './status.ts';
export type { TrackingConfig, TrackingContext } from './context.ts';
export { auditIdentity } from './audit-identity.ts';
export { traceState } from './trace-state.ts';
export { traceInRedis } from './trace-redis.ts';

/**
 * The tracked RFQs in Redis: each one's record (state, transitions, the comparison version last written) and its
 * store, shared by tracking (the polls) and awarding (the versions); and what both note beside the records: fields
 * said once, withheld awards, the webhook path's figures.
 */
export {
  closeToWorkbook,
  countHint,
  hintFigures,
  type HintFigures,
  type LatencyHistogram,
  observeCloseToWorkbook,
  quantileBound,
} from './hint-stats.ts';
export {
  type ErpDays,
  MAX_TRANSITIONS,
  type RfqState,
  type TrackedRfq,
  type TrackedState,
  type Transition,
  unreadableOf,
  type WrittenComparison,
} from './record.ts';
export { sayOnce, type ToSay } from './report-once.ts';
export { TrackingStore, trackingStore } from './store.ts';
export { noteWithheld, retryWithheld, type WithheldAward, withheldAwards } from './withheld-awards.ts';

/** What `rfq-sync status` and `once` read about tracked RFQs. */
import { type TrackingContext } from './context.ts';
import { lastPoll, lastSuccessfulPollAt, type PollResult } from './poll/index.ts';
import { type TrackedRfq, type TrackedState, trackingStore } from '../rfqs/index.ts';

export interface TrackingStatus {
  /** Tracked RFQs per state (`created`: not yet seen in any list). */
  byState: Record<TrackedState, number>;
  /** The last poll, successful or not (`ok`, `error`). */
  lastPoll?: PollResult;
  /** Unix ms when the last successful poll finished. */
  lastSuccessfulPollAt?: number;
  /** RFQs missing from every list for MISSING_POLLS_BEFORE_FLAG polls or more (still tracked). */
  flagged: number[];
  /** Cancelled RFQs (reported: no comparison is written for them). */
  cancelled: number[];
}

export async function trackingStatus(ctx: Pick<TrackingContext, 'redis' | 'keys'>): Promise<TrackingStatus> {
  const store = trackingStore(ctx);
  const [byState, last, okAt, flagged, cancelled] = await Promise.all([
    store.countByState(),
    lastPoll(ctx),
    lastSuccessfulPollAt(ctx),
    store.flaggedIds(),
    store.idsInState('cancelled'),
  ]);
  return {
    byState,
    ...(last ? { lastPoll: last } : {}),
    ...(okAt !== undefined ? { lastSuccessfulPollAt: okAt } : {}),
    flagged,
    cancelled,
  };
}

export interface PendingWork {
  /** Closed RFQs without a comparison workbook yet. */
  awaitingComparison: number[];
  /** Completed RFQs without the award version yet. */
  awaitingAward: number[];
  /** True when nothing the service already allows is left to do (open RFQs wait for the outside world). */
  done: boolean;
}

/** Work that is reachable now: `once` keeps polling and draining queues until this is done. */
export async function pendingWork(ctx: Pick<TrackingContext, 'redis' | 'keys'>): Promise<PendingWork> {
  const store = trackingStore(ctx);
  const [closedIds, completedIds] = await Promise.all([store.idsInState('closed'), store.idsInState('completed')]);
  const [closed, completed] = await Promise.all([store.getMany(closedIds), store.getMany(completedIds)]);
  const awaitingComparison = closed
    .filter((r): r is TrackedRfq => !!r && r.state === 'closed' && !r.comparison)
    .map((r) => r.rfqId);
  const awaitingAward = completed
    .filter((r): r is TrackedRfq => !!r && r.state === 'completed' && !r.comparison?.award)
    .map((r) => r.rfqId);
  return { awaitingComparison, awaitingAward, done: awaitingComparison.length === 0 && awaitingAward.length === 0 };
}

/** One tracked RFQ's record (state, transitions with times, last comparison version), for `status RFQ_ID`. */
export async function trackedRfq(
  ctx: Pick<TrackingContext, 'redis' | 'keys'>,
  rfqId: number,
): Promise<TrackedRfq | undefined> {
  return trackingStore(ctx).get(rfqId);
}

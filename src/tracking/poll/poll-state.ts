/** What one poll carries through its steps (poll-listing.ts, poll-apply.ts): its result, being filled, and what it saw. */
import type { ListedRfq } from '../../sourcing/index.ts';
import type { TrackingContext } from '../context.ts';
import type { PollResult } from './poll-result.ts';
import { type TrackingStore, type RfqState } from '../../rfqs/index.ts';

/** Which path saw a transition: the full poll, or a targeted check of the RFQs a webhook named (hint-check.ts). */
export type TransitionVia = 'poll' | 'webhook';

export interface PollState {
  ctx: TrackingContext;
  slot: string;
  via: TransitionVia;
  /**
   * Unix ms when this reading started: a record another reading changed after that (its `lastSeenAt` is later) keeps
   * its state, whatever this (older) reading showed (a webhook's check and a poll running at once).
   */
  readAt: number;
  store: TrackingStore;
  log: TrackingContext['logger'];
  result: PollResult;
  trackedIds: number[];
  tracked: Set<number>;
  /** The whole poll's budget (POLL_MAX_MS). */
  budget: AbortSignal;
  /** Tracked RFQs found in the lists; `rfq` is undefined for one found by its _id whose record breaks the schema. */
  seen: Map<number, { state: RfqState; rfq: ListedRfq | undefined }>;
  /**
   * Tracked RFQs found by their _id with no state to read (a broken record whose label cannot be read either, in a
   * detail answer or the unfiltered list): their records are left as they were, not counted missing (the service
   * has them).
   */
  unreadableIds: Set<number>;
}

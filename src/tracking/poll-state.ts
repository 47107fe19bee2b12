/** What one poll carries through its steps (poll-listing.ts, poll-apply.ts): its result, being filled, and what it saw. */
import type { ListedRfq } from '../sourcing/types.ts';
import type { TrackingContext } from './context.ts';
import type { PollResult } from './poll-result.ts';
import type { TrackingStore } from './store.ts';
import type { RfqState } from './transitions.ts';

export interface PollState {
  ctx: TrackingContext;
  slot: string;
  store: TrackingStore;
  log: TrackingContext['logger'];
  result: PollResult;
  trackedIds: number[];
  tracked: Set<number>;
  /** The whole poll's budget (POLL_MAX_MS). */
  budget: AbortSignal;
  /** Tracked RFQs found in the lists; `rfq` is undefined for one found by its _id whose record breaks the schema. */
  seen: Map<number, { state: RfqState; rfq: ListedRfq | undefined }>;
}

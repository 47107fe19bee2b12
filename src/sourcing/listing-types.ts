/**
 * What a listing strategy (listing-strategy.ts) is asked and what it tells: the states of the tracked RFQs that can
 * still change, found through whatever the account's dialect makes cheapest, each RFQ handed to the caller's sink.
 */
import type { Logger } from '../core/index.ts';
import type { AccountReading } from './account-reading.ts';
import type { InvalidListedRfq, ListRfqsOptions, SourcingPort } from './port.ts';
import type { ListedRfq, RfqState } from './types.ts';

/** The lists a strategy reads: one state's (a proven filter), or `all` (the unfiltered list, states from labels). */
export type ListName = RfqState | 'all';

export interface StateSink {
  /** An RFQ seen in `state`: read in that state's list, or from its own label (unfiltered list, detail call). */
  found(state: RfqState, rfq: ListedRfq, from: ListName | 'detail'): void;
  /** An RFQ read whose state is unknown: a label the mapping does not know. */
  unlabelled(rfq: ListedRfq, from: ListName | 'detail'): void;
  /**
   * A record that breaks the schema, read in `list` or by its detail call (placed by the caller when its `_id` is
   * readable: in that list's state, or the one its label names).
   */
  invalid(list: ListName | 'detail', bad: InvalidListedRfq): void;
}

export interface TrackedStatesRequest {
  /** Tracked RFQs whose state can still change (not completed or cancelled as far as we know). */
  active: ReadonlySet<number>;
  sink: StateSink;
  signal?: AbortSignal;
  pageRetry?: ListRfqsOptions['pageRetry'];
  log: Logger;
}

/** What one reading cost and chose (kept in the poll result, logged). */
export interface ListingFigures {
  strategy: string;
  /** Requests sent to the service: list pages plus detail calls. */
  requests: number;
  /** Pages and RFQs read per list. */
  lists: Partial<Record<ListName, { pages: number; rfqs: number }>>;
  detailCalls: number;
  /** Tracked active RFQs not in the open or closed list (or not yet found in the unfiltered one). */
  left: number;
  /** How the RFQs that left were settled, with the figures behind the choice. */
  choice?: string;
  /** Tracked active RFQs found in no list they could be in (nor by the detail call). */
  missing: number[];
}

export type ListingPort = Pick<SourcingPort, 'listRfqPages' | 'getRfq'>;

/**
 * One way of reading the states of the tracked RFQs, and the whole account (account-reading.ts), chosen once from
 * the account's dialect.
 */
export interface ListingStrategy extends AccountReading {
  readonly name: string;
  /** The states of the tracked RFQs that can still change (the poll). */
  read(port: ListingPort, req: TrackedStatesRequest): Promise<ListingFigures>;
  /** One RFQ and its state (a comparison job, `rfq-sync compare`); undefined when the service does not list it. */
  find(port: ListingPort, rfqId: number): Promise<{ rfq: ListedRfq; state: RfqState } | undefined>;
}

/** Figures of a reading that has sent nothing yet. */
export function noFigures(strategy: string): ListingFigures {
  return { strategy, requests: 0, lists: {}, detailCalls: 0, left: 0, missing: [] };
}

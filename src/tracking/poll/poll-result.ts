/**
 * What one poll reports (kept in Redis for `status` and the poll history): its own file so the poll's steps and the
 * history can share it without importing the runner.
 */
import type { ListingFigures } from '../../sourcing/index.ts';
import type { RfqState, Transition } from '../../rfqs/index.ts';

export interface PollResult {
  slot: string;
  /** Unix ms. */
  startedAt: number;
  finishedAt: number;
  ok: boolean;
  error?: string;
  /** Set when another poll held the lock. */
  skipped?: string;
  /** How the states were read: strategy, requests, pages per list, the choice and its figures, tracked RFQs missing. */
  listing?: ListingFigures;
  /** RFQs read per status list (all of the account's, tracked or not; a list read only in part counts its part). */
  listed: Partial<Record<RfqState, number>>;
  tracked: number;
  found: number;
  missing: number;
  /** The transitions (as kept in Redis: the first MAX_RESULT_TRANSITIONS; `transitionCount` is all of them). */
  transitions: Array<Transition & { rfqId: number }>;
  /** How many transitions the poll found (results stored before it existed lack it: their list was whole). */
  transitionCount?: number;
  newlyFlagged: number[];
  reappeared: number[];
  enqueued: { quotations: number; award: number; checks: number };
  /** Listed RFQs whose record breaks the schema (first MAX_RESULT_INVALID); `rfqId` when its `_id` was readable. */
  invalid: Array<{
    status: RfqState | 'all';
    rfqId?: number;
    page: number;
    index: number;
    field: string;
    reason: string;
  }>;
  /** All such RFQs, including those beyond the list above. */
  invalidCount: number;
  /**
   * Fields of listed RFQs left out because they could not be read (first MAX_RESULT_INVALID); the RFQ itself was
   * read and counted. Absent from results stored before it existed.
   */
  unreadable?: Array<{ status: RfqState | 'all'; rfqId: number; field: string; reason: string }>;
  /** All such fields, including those beyond the list above. */
  unreadableCount?: number;
  /** The overview workbook this poll rewrote (rows, time taken), or why it could not. */
  overview?: { rows: number; ms: number } | { error: string };
}

/** A poll that has not read anything yet. */
export function emptyPollResult(slot: string, startedAt: number): PollResult {
  return {
    slot,
    startedAt,
    finishedAt: startedAt,
    ok: false,
    listed: {},
    tracked: 0,
    found: 0,
    missing: 0,
    transitions: [],
    newlyFlagged: [],
    reappeared: [],
    enqueued: { quotations: 0, award: 0, checks: 0 },
    invalid: [],
    invalidCount: 0,
    unreadable: [],
    unreadableCount: 0,
  };
}

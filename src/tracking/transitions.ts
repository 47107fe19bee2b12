/**
 * What one poll means for one tracked RFQ: pure logic, no Redis, no HTTP (unit-tested on its own).
 *
 * The state of an RFQ is the status list it was found in (docs/architecture.md#where-the-interface-is-silent).
 * An RFQ this service created starts as `created` until a poll first finds it. Entering `closed` asks for the
 * quotations and a comparison workbook; entering `completed` asks for the winning quotation and the award;
 * `cancelled` is recorded and reported. An RFQ absent from every list is counted, and flagged once absent for
 * `missingPollsBeforeFlag` polls; it stays tracked and is unflagged when it shows up again.
 */
import type { ComparisonSummary } from '../comparison/index.ts';
import type { RfqStatusFilter } from '../sourcing/index.ts';

export type RfqState = RfqStatusFilter;
export type TrackedState = RfqState | 'created';
export const TRACKED_STATES: readonly TrackedState[] = ['created', 'open', 'closed', 'cancelled', 'completed'];

/** Later lists win when a poll finds an RFQ in two (it moved while the lists were read). */
const STATE_ORDER: Record<TrackedState, number> = { created: 0, open: 1, closed: 2, cancelled: 3, completed: 3 };

export interface Transition {
  from: TrackedState;
  to: TrackedState;
  /** Unix ms (UTC) of the poll that saw it. */
  at: number;
}

/** What the last comparison workbook written for an RFQ reflected. */
export interface WrittenComparison {
  version: number;
  /** Unix ms. */
  writtenAt: number;
  /** revision_no per quotation_key the workbook reflected. */
  revisions: Record<string, number>;
  /** The winning quotation_key once the RFQ is completed and the award is written. */
  winnerKey?: string;
  /** True when this version carries the award (written for a completed RFQ). */
  award: boolean;
  workbook: string;
  /**
   * The latest award file of this RFQ (written by this version or carried over from an earlier one); none until
   * the award is final (every quotation decided, or completed with the winner).
   */
  awardCsv?: string;
  /** Set when this version's quotes look like the other QUOTATION_PRICE_BASIS (shown by `status RFQ_ID`). */
  priceBasisWarning?: string;
  /** Qualification decisions this version reflected, when every quotation had one (see decisionsOf). */
  decisions?: string;
  /** The overview's figures of this version (src/comparison/overview.ts); absent on versions written before it. */
  summary?: ComparisonSummary;
  /** Fields of the RFQ record left out unread when this version was written (unreadableOf); absent: none. */
  listedUnreadable?: string;
}

/** Dates the ERP gave as a day only: the day as written and the instant sent to the service for it. */
export type ErpDays = Partial<Record<'due_date' | 'required_date', { day: string; at: number }>>;

export interface TrackedRfq {
  rfqId: number;
  /** Bumped by every write: optimistic concurrency (compare-and-set) in the store. */
  seq: number;
  /** currency: ISO 4217, from the profile or REQUISITION_CURRENCY when the RFQ was tracked; every amount's. */
  /** erpPrices: external_id -> [unit price, price unit] from the export (src/core/requisition.ts), for the estimates. */
  requisition?: {
    key: string;
    sourceFile: string;
    profile?: string;
    title?: string;
    currency?: string;
    erpPrices?: Record<string, [string, string]>;
    /** external_id -> the ERP's material or item number (profile field product_code): the price history's key. */
    productCodes?: Record<string, string>;
    erpDays?: ErpDays;
  };
  state: TrackedState;
  /** Unix ms. */
  trackedAt: number;
  /** Unix ms of the last poll that found it and changed this record (first sighting, transition, reappearance). */
  lastSeenAt?: number;
  /** `version` of the RFQ record last stored from a listing (the stored copy is refreshed when it changes). */
  listedVersion?: number;
  /** due_date (Unix ms) as last listed: the overview sorts by it without reading every listed RFQ. */
  dueDate?: number;
  /**
   * Fields of the RFQ record as last listed that could not be read (unreadableOf); absent: none. When they change
   * (the service answers them readably again), the stored copy is refreshed and a new comparison version written.
   */
  listedUnreadable?: string;
  /** Consecutive polls that found it in no list. */
  missingPolls: number;
  /** Slot of the last poll that counted it missing: a retried poll of the same slot does not count it twice. */
  missingSlot?: string;
  /** Unix ms when it was flagged as missing; absent when not flagged. */
  flaggedAt?: number;
  /** Most recent last; capped at MAX_TRANSITIONS. */
  transitions: Transition[];
  comparison?: WrittenComparison;
}

export const MAX_TRANSITIONS = 50;

export type PollAction =
  /** Entered closed: pull quotations, write the comparison workbook. */
  | 'pull-quotations'
  /** Still closed: re-read quotations and write a new version if a revision rose. */
  | 'check-revisions'
  /** Completed without an award written yet: pull the winner, write the award version. */
  | 'pull-award'
  /** Entered cancelled: report. */
  | 'report-cancelled';

export interface Observation {
  record: TrackedRfq;
  transition?: Transition;
  actions: PollAction[];
  /** `flagged`: missing long enough, flagged by this poll; `reappeared`: was flagged, found again. */
  flag?: 'flagged' | 'reappeared';
  /** True when the record differs from the input and must be stored. */
  changed: boolean;
}

/** The state a poll assigns an RFQ found in several lists (it moved during the poll): the most advanced one. */
export function mergeSeenState(a: RfqState | undefined, b: RfqState): RfqState {
  if (a === undefined) return b;
  return STATE_ORDER[b] > STATE_ORDER[a] ? b : a;
}

/**
 * Apply one poll's finding to a tracked RFQ. `seen` is the list it was found in, undefined when in none.
 * Pure: returns the next record (seq untouched; the store bumps it) and the work the poll must enqueue.
 */
export function observe(
  prev: TrackedRfq,
  seen: RfqState | undefined,
  now: number,
  missingPollsBeforeFlag: number,
): Observation {
  const actions: PollAction[] = [];
  if (seen === undefined) {
    const missingPolls = prev.missingPolls + 1;
    const flagNow = prev.flaggedAt === undefined && missingPolls >= missingPollsBeforeFlag;
    const record: TrackedRfq = { ...prev, missingPolls, ...(flagNow ? { flaggedAt: now } : {}) };
    return { record, actions, changed: true, ...(flagNow ? { flag: 'flagged' as const } : {}) };
  }

  const record: TrackedRfq = { ...prev, lastSeenAt: now, missingPolls: 0 };
  let flag: Observation['flag'];
  if (prev.flaggedAt !== undefined) {
    delete record.flaggedAt;
    flag = 'reappeared';
  }
  let transition: Transition | undefined;
  if (seen !== prev.state) {
    transition = { from: prev.state, to: seen, at: now };
    record.state = seen;
    record.transitions = [...prev.transitions, transition].slice(-MAX_TRANSITIONS);
    if (seen === 'closed') actions.push('pull-quotations');
    if (seen === 'cancelled') actions.push('report-cancelled');
  } else if (seen === 'closed') {
    actions.push('check-revisions');
  }
  if (seen === 'completed') actions.push(...finalFollowUp({ ...prev, state: seen }));
  // An unchanged RFQ is not rewritten: a poll over thousands of quiet RFQs costs reads only.
  const changed =
    transition !== undefined || flag !== undefined || prev.missingPolls !== 0 || prev.lastSeenAt === undefined;
  return {
    record: changed ? record : prev,
    actions,
    changed,
    ...(transition ? { transition } : {}),
    ...(flag ? { flag } : {}),
  };
}

/** Completed and cancelled RFQs never change state again: polls do not look for them. */
export function isFinal(state: TrackedState): boolean {
  return state === 'completed' || state === 'cancelled';
}

/**
 * What a poll still asks for a completed RFQ, found or not: an award that was never written (job failed, worker
 * died) is asked for again, and one written from a record that has since been read differently (a field readable
 * again).
 */
export function finalFollowUp(rec: TrackedRfq): PollAction[] {
  const reread = (rec.comparison?.listedUnreadable ?? '') !== (rec.listedUnreadable ?? '');
  return rec.state === 'completed' && (!rec.comparison?.award || reread) ? ['pull-award'] : [];
}

/** The fields of a listed RFQ left out unread, as one comparable text ('' when none). */
export function unreadableOf(rfq: { unreadable?: ReadonlyArray<{ field: string }> }): string {
  return (rfq.unreadable ?? [])
    .map((u) => u.field)
    .sort()
    .join(',');
}

export function newTrackedRfq(rfqId: number, now: number, requisition?: TrackedRfq['requisition']): TrackedRfq {
  return {
    rfqId,
    seq: 0,
    state: 'created',
    trackedAt: now,
    missingPolls: 0,
    transitions: [],
    ...(requisition ? { requisition } : {}),
  };
}

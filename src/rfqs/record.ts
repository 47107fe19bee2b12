/**
 * The record of a tracked RFQ: its state (the status list it was last found in), its transitions, what the ERP gave
 * for it, and the comparison version last written. Written by tracking (the polls) and awarding (the versions), each
 * through the store's compare-and-set (store.ts).
 */
import type { ComparisonSummary } from '../comparison/index.ts';
import type { RfqStatusFilter } from '../sourcing/index.ts';

export type RfqState = RfqStatusFilter;
export type TrackedState = RfqState | 'created';
export const TRACKED_STATES: readonly TrackedState[] = ['created', 'open', 'closed', 'cancelled', 'completed'];

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

/**
 * What one poll means for one tracked RFQ: pure logic, no Redis, no HTTP (unit-tested on its own).
 *
 * The state of an RFQ is the status list it was found in (docs/architecture.md#where-the-interface-is-silent).
 * An RFQ this service created starts as `created` until a poll first finds it. Entering `closed` asks for the
 * quotations and a comparison workbook; entering `completed` asks for the winning quotation and the award;
 * `cancelled` is recorded and reported. An RFQ absent from every list is counted, and flagged once absent for
 * `missingPollsBeforeFlag` polls; it stays tracked and is unflagged when it shows up again.
 */
import { MAX_TRANSITIONS, type RfqState, type TrackedRfq, type TrackedState, type Transition } from '../rfqs/index.ts';

/** Later lists win when a poll finds an RFQ in two (it moved while the lists were read). */
const STATE_ORDER: Record<TrackedState, number> = { created: 0, open: 1, closed: 2, cancelled: 3, completed: 3 };

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

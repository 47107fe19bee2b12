/**
 * A poll's first step: read what the listing strategy says (open and closed lists, then the RFQs that left them;
 * src/sourcing/listing-strategy.ts) and note where each tracked RFQ was found. The others are only counted. A record with fields that could not be read counts as read (its fields are left out of it); one
 * whose identity cannot be read is placed by its `_id` when that is readable. Both are kept in the poll result (for
 * `status`) on every poll, and logged once per RFQ and field (src/rfqs/report-once.ts), not once per poll.
 */
import { isRetryablePageError } from '../../core/index.ts';
import {
  listingStrategyFor,
  type ListName,
  type StateSink,
  type ListedRfq,
  type InvalidListedRfq,
  type ListRfqsOptions,
} from '../../sourcing/index.ts';
import type { PollState } from './poll-state.ts';
import { sayOnce, type ToSay, type RfqState } from '../../rfqs/index.ts';
import { mergeSeenState } from '../transitions.ts';
import { withheldAwards } from '../../rfqs/index.ts';

const MAX_RESULT_INVALID = 100;
/** Tracked RFQs in no list named one by one in a poll's log (all are counted in its result). */
const MAX_SAID_MISSING = 20;
/** Each failed page asked again up to 4 times, after 0.2, 0.4, 0.8, 1.6 s (jittered ±50%), before the poll fails. */
const PAGE_RETRY: NonNullable<ListRfqsOptions['pageRetry']> = {
  attempts: 4,
  retryable: isRetryablePageError,
  backoffMs: (n) => 100 * 2 ** n * (0.5 + Math.random()),
};

/**
 * Fill `s.seen` (and the result's counts) with the states of the tracked RFQs that can still change, read the way
 * the account's dialect makes cheapest (src/sourcing/listing-strategy.ts). Completed and cancelled RFQs are final:
 * they are not looked for.
 */
export async function readStatusLists(s: PollState): Promise<void> {
  const dialect = s.ctx.dialects ? await s.ctx.dialects.get() : undefined;
  const strategy = listingStrategyFor(dialect);
  const final = new Set([...(await s.store.idsInState('completed')), ...(await s.store.idsInState('cancelled'))]);
  // a completed RFQ whose award file is withheld still needs its record: a new version may list its lines as posted
  for (const w of await withheldAwards(s.ctx)) final.delete(w.rfqId);
  const active = new Set(s.trackedIds.filter((id) => !final.has(id)));
  const said: ToSay[] = [];
  const unknownLabels = new Set<string>();
  const figures = await strategy.read(s.ctx.client, {
    active,
    sink: sinkOf(s, said, unknownLabels),
    pageRetry: PAGE_RETRY,
    signal: s.budget,
    log: s.log,
  });
  for (const label of unknownLabels) {
    s.log.warn(
      { event: 'rfq.unknown-label', label },
      `RFQ status label "${label}" is not in the label mapping: the state of RFQs carrying it is not read`,
    );
  }
  s.result.found = s.seen.size;
  s.result.listing = { ...figures, missing: figures.missing.slice(0, MAX_RESULT_INVALID) };
  s.log.info(
    { event: 'poll.listing', ...figures, missing: figures.missing.length },
    `poll read ${figures.requests} requests (${strategy.name}, ${active.size} tracked RFQs can change)` +
      (figures.choice ? `: ${figures.choice}` : ''),
  );
  for (const rfqId of figures.missing.slice(0, MAX_SAID_MISSING))
    s.log.warn(
      { event: 'rfq.missing', rfqId },
      `RFQ ${rfqId} is tracked but was found in no list it could be in (nor by a detail call, where one was made): counted missing`,
    );
  await sayOnce(s.store, s.log, said);
}

/** Where the strategy hands what it read: placed, counted, unreadable fields and broken records kept for status. */
export function sinkOf(s: PollState, said: ToSay[], unknownLabels: Set<string>): StateSink {
  const count = (state: RfqState) => (s.result.listed[state] = (s.result.listed[state] ?? 0) + 1);
  return {
    found(state, rfq, from) {
      if (from !== 'detail') count(state);
      noteUnreadable(s, from === 'detail' ? state : from, rfq, said);
      place(s, state, rfq._id, rfq);
    },
    unlabelled(rfq, from) {
      noteUnreadable(s, from === 'detail' ? 'all' : from, rfq, said);
      if (s.tracked.has(rfq._id)) unknownLabels.add(rfq.status ?? '(none)');
    },
    invalid(list, bad) {
      if (list !== 'all' && list !== 'detail') count(list);
      onInvalidOf(s, list, said)(bad);
    },
  };
}

/** A tracked RFQ found in a list; found in two, the later state wins. */
function place(s: PollState, status: RfqState, id: number, rfq: ListedRfq | undefined): void {
  if (!s.tracked.has(id)) return;
  const prev = s.seen.get(id);
  const state = mergeSeenState(prev?.state, status);
  s.seen.set(id, state === prev?.state ? prev : { state, rfq });
}

/**
 * The handler of records that break the schema, read in a list or by a detail call: placed in the list's state, or
 * the one its label names (the unfiltered list, a detail call); with neither, its record is left as it was.
 */
function onInvalidOf(s: PollState, from: ListName | 'detail', said: ToSay[]) {
  const { result } = s;
  return (bad: InvalidListedRfq): void => {
    result.invalidCount++;
    const { rfqId, page, index, field, reason } = bad;
    const state = from === 'all' || from === 'detail' ? bad.labelState : from;
    const status = state ?? 'all';
    const where = from === 'detail' ? 'its detail answer' : `the ${from} list`;
    if (result.invalid.length < MAX_RESULT_INVALID)
      result.invalid.push({ status, ...(rfqId !== undefined ? { rfqId } : {}), page, index, field, reason });
    said.push({
      key: `${rfqId ?? `${status}:${page}:${index}`}|${field}`,
      fields: {
        rfqId,
        status,
        page,
        index,
        field,
        reason,
        tracked: rfqId !== undefined && s.tracked.has(rfqId),
        event: 'rfq.invalid',
      },
      msg: `RFQ ${rfqId ?? `at ${index} of page ${page}`} in ${where} breaks the schema: field ${field}: ${reason}`,
    });
    if (rfqId === undefined) return;
    if (state) place(s, state, rfqId, undefined);
    else if (s.tracked.has(rfqId)) s.unreadableIds.add(rfqId);
  };
}

/** A listed RFQ with fields left out: kept in the result, said once per RFQ and field. */
function noteUnreadable(s: PollState, status: RfqState | 'all', rfq: ListedRfq, said: ToSay[]): void {
  const { result } = s;
  for (const { field, reason } of rfq.unreadable ?? []) {
    result.unreadableCount = (result.unreadableCount ?? 0) + 1;
    if ((result.unreadable ??= []).length < MAX_RESULT_INVALID)
      result.unreadable.push({ status, rfqId: rfq._id, field, reason });
    said.push({
      key: `${rfq._id}|${field}`,
      fields: { rfqId: rfq._id, status, field, reason, tracked: s.tracked.has(rfq._id), event: 'rfq.unreadable-field' },
      msg: `RFQ ${rfq._id} in the ${status} list: field ${field} cannot be read (${reason}); the RFQ is read without it`,
    });
  }
}

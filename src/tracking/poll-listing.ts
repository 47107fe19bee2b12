/**
 * A poll's first step: read the RFQ lists through all pages and note where each tracked RFQ was found. The others
 * are only counted. A record with fields that could not be read counts as read (its fields are left out of it); one
 * whose identity cannot be read is placed by its `_id` when that is readable. Both are kept in the poll result (for
 * `status`) on every poll, and logged once per RFQ and field (report-once.ts), not once per poll.
 */
import { isRetryablePageError } from '../errors.ts';
import type { InvalidListedRfq, ListRfqsOptions } from '../sourcing/client.ts';
import type { FilterForm, ListedRfq } from '../sourcing/types.ts';
import { RFQ_STATUSES } from '../sourcing/types.ts';
import type { PollState } from './poll-state.ts';
import { sayOnce, type ToSay } from './report-once.ts';
import { mergeSeenState, type RfqState } from './transitions.ts';

const MAX_RESULT_INVALID = 100;
/** Each failed page asked again up to 4 times, after 0.2, 0.4, 0.8, 1.6 s (jittered ±50%), before the poll fails. */
const PAGE_RETRY: NonNullable<ListRfqsOptions['pageRetry']> = {
  attempts: 4,
  retryable: isRetryablePageError,
  backoffMs: (n) => 100 * 2 ** n * (0.5 + Math.random()),
};

/** Fill `s.seen` (and the result's counts) from the account's lists. */
export async function readStatusLists(s: PollState): Promise<void> {
  // The dialect says how states are read: a proven filter form (four lists), or the unfiltered list with each
  // RFQ's state from its record's label (no form proven). Never a list whose filter is not proven.
  const dialect = s.ctx.dialects ? await s.ctx.dialects.get() : undefined;
  const form = dialect?.filter ?? 'lower';
  const said: ToSay[] = [];
  if (form === 'none') await readUnfilteredList(s, said);
  else await readFilteredLists(s, form, said);
  s.result.found = s.seen.size;
  await sayOnce(s.store, s.log, said);
}

/** The unfiltered list: each RFQ's state from its label; labels not in the mapping are said once per poll. */
async function readUnfilteredList(s: PollState, said: ToSay[]): Promise<void> {
  const { ctx, result, tracked } = s;
  const unknownLabels = new Set<string>();
  let n = 0;
  for await (const rfq of ctx.client.listRfqs(null, {
    onInvalid: onInvalidOf(s, 'all', () => n++, said),
    pageRetry: PAGE_RETRY,
    signal: s.budget,
  })) {
    n++;
    noteUnreadable(s, 'all', rfq, said);
    if (rfq.labelState) {
      place(s, rfq.labelState, rfq._id, rfq);
      result.listed[rfq.labelState] = (result.listed[rfq.labelState] ?? 0) + 1;
    } else if (tracked.has(rfq._id)) unknownLabels.add(rfq.status ?? '(none)');
  }
  for (const label of unknownLabels) {
    s.log.warn(
      { event: 'rfq.unknown-label', label },
      `RFQ status label "${label}" is not in the label mapping: the state of RFQs carrying it is not read`,
    );
  }
}

/** The four filtered lists, in lifecycle order (an RFQ moving forward meanwhile shows in a later list, never none). */
async function readFilteredLists(s: PollState, form: FilterForm, said: ToSay[]): Promise<void> {
  for (const status of RFQ_STATUSES) {
    let n = 0;
    const onInvalid = onInvalidOf(s, status, () => n++, said);
    for await (const rfq of s.ctx.client.listRfqs(
      { state: status, form },
      { onInvalid, pageRetry: PAGE_RETRY, signal: s.budget },
    )) {
      n++;
      noteUnreadable(s, status, rfq, said);
      place(s, status, rfq._id, rfq);
    }
    s.result.listed[status] = n;
  }
}

/** A tracked RFQ found in a list; found in two, the later state wins. */
function place(s: PollState, status: RfqState, id: number, rfq: ListedRfq | undefined): void {
  if (!s.tracked.has(id)) return;
  const prev = s.seen.get(id);
  const state = mergeSeenState(prev?.state, status);
  s.seen.set(id, state === prev?.state ? prev : { state, rfq });
}

/** The handler of a list's records whose identity cannot be read (`count` counts them as listed). */
function onInvalidOf(s: PollState, status: RfqState | 'all', count: () => void, said: ToSay[]) {
  const { result } = s;
  return (bad: InvalidListedRfq): void => {
    count();
    result.invalidCount++;
    const { rfqId, page, index, field, reason } = bad;
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
      msg: `RFQ ${rfqId ?? `at ${index} of page ${page}`} in the ${status} list breaks the schema: field ${field}: ${reason}`,
    });
    if (rfqId !== undefined && status !== 'all') place(s, status, rfqId, undefined);
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

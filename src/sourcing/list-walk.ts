/**
 * The reads a listing strategy is made of (listing-strategy.ts): a list in full, a list only as far as the RFQs
 * still looked for (list-coverage.ts), and detail calls. Each counts its requests into the strategy's figures and
 * hands every RFQ it reads to the sink.
 */
import { ListCoverage, type IdOrder } from './list-coverage.ts';
import type { InvalidListedRfq, RfqListPage } from './port.ts';
import type { ListedRfq, ListFilter, RfqState } from './types.ts';
import type { ListingFigures, ListingPort, ListName, TrackedStatesRequest } from './listing-types.ts';

/** Detail calls in flight at once (the transport's rate limiter still paces them). */
const DETAIL_CONCURRENCY = 4;

function tally(f: ListingFigures, name: ListName, rfqs: number): void {
  const l = (f.lists[name] ??= { pages: 0, rfqs: 0 });
  l.pages++;
  l.rfqs += rfqs;
  f.requests++;
}

/** One list page's RFQs to the sink (each `_id` once per list: offset pages may shift while read). */
function deliver(rfqs: ListedRfq[], once: Set<number>, onRfq: (rfq: ListedRfq) => void): number {
  let n = 0;
  for (const r of rfqs) {
    if (once.has(r._id)) continue;
    once.add(r._id);
    n++;
    onRfq(r);
  }
  return n;
}

/** The RFQ to the sink: its state the list's, or its label's on the unfiltered list. */
function place(req: TrackedStatesRequest, name: ListName, r: ListedRfq): void {
  const state = name === 'all' ? r.labelState : name;
  if (state) req.sink.found(state, r, name);
  else req.sink.unlabelled(r, name);
}

/**
 * A list read page by page (`edges`: page 1 and the last page only); `stop()` is asked after each page (undefined:
 * to its end). Returns the `_id`s read per
 * page, in order (the evidence of the account's list order), and whether `meta.total` moved while it was read (RFQs
 * left or joined it, so offset pages may have shifted an RFQ past the pages read).
 */
export async function readList(
  port: ListingPort,
  req: TrackedStatesRequest,
  f: ListingFigures,
  name: ListName,
  list: ListFilter,
  stop?: () => boolean,
  which: 'all' | 'edges' = 'all',
): Promise<{ ids: number[][]; moved: boolean }> {
  const once = new Set<number>();
  const pages: number[][] = [];
  let total: number | undefined;
  let moved = false;
  const onInvalid = (bad: Parameters<TrackedStatesRequest['sink']['invalid']>[1]) => {
    if (bad.rfqId !== undefined && once.has(bad.rfqId)) return;
    if (bad.rfqId !== undefined) once.add(bad.rfqId);
    req.sink.invalid(name, bad);
  };
  for await (const page of port.listRfqPages(list, {
    onInvalid,
    ...(which === 'edges' ? { pages: which } : {}),
    ...(req.pageRetry ? { pageRetry: req.pageRetry } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  })) {
    const n = deliver(page.rfqs, once, (r) => place(req, name, r));
    tally(f, name, n + (page.invalid?.length ?? 0));
    pages.push(page.rfqs.map((r) => r._id));
    if (page.page === 1) total = page.listSize;
    else moved ||= page.listSize !== total;
    if (stop?.()) break;
  }
  return { ids: pages, moved };
}

/**
 * Looks for `missing` (removed from it as found) in a list known to be in `order`: from the end where the newest
 * RFQs are, one page at a time, until each one still missing is found or proven not in this list. Returns the
 * coverage (broken: the pages contradicted the order; the caller reads the list in full).
 */
export async function walkFor(
  port: ListingPort,
  req: TrackedStatesRequest,
  f: ListingFigures,
  name: RfqState,
  list: ListFilter,
  missing: Set<number>,
  order: IdOrder,
): Promise<ListCoverage> {
  const coverage = new ListCoverage(order);
  const once = new Set<number>();
  const settled = () => [...missing].every((id) => coverage.absent(id));
  const onInvalid = (bad: Parameters<TrackedStatesRequest['sink']['invalid']>[1]) => {
    if (bad.rfqId !== undefined) missing.delete(bad.rfqId);
    req.sink.invalid(name, bad);
  };
  let ended = true;
  for await (const page of port.listRfqPages(list, {
    // ascending: the newest at the last page; descending: at page 1, read forward
    pages: order === 'ascending' ? 'backward' : 'all',
    onInvalid,
    ...(req.pageRetry ? { pageRetry: req.pageRetry } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  })) {
    const n = deliver(page.rfqs, once, (r) => {
      missing.delete(r._id);
      place(req, name, r);
    });
    tally(f, name, n + (page.invalid?.length ?? 0));
    coverage.add(page.page, idsInPageOrder(page), page.lastPage, page.listSize);
    if (missing.size === 0 || coverage.broken || settled()) {
      ended = false;
      break;
    }
  }
  if (ended) coverage.ended();
  return coverage;
}

/** The `_id`s of a page as it held them, broken records in their place (undefined where unreadable). */
function idsInPageOrder(page: RfqListPage): Array<number | undefined> {
  const bad = new Map((page.invalid ?? []).map((b) => [b.index, b.rfqId]));
  const valid = page.rfqs.values();
  return Array.from({ length: page.rfqs.length + bad.size }, (_, i) =>
    bad.has(i) ? bad.get(i) : valid.next().value?._id,
  );
}

/**
 * One detail call per RFQ: its state from the answer's label. An RFQ the service does not have (404) stays in
 * `missing`; one found is removed from it (one whose record cannot be read too: it goes to the sink's broken records).
 */
export async function detailCalls(
  port: ListingPort,
  req: TrackedStatesRequest,
  f: ListingFigures,
  ids: number[],
  missing: Set<number>,
): Promise<void> {
  const queue = [...ids];
  const one = async (id: number): Promise<void> => {
    if (req.signal?.aborted) throw req.signal.reason;
    f.requests++;
    f.detailCalls++;
    // a record that cannot be read is found all the same (in the state its label names, where readable), counted
    // with the broken records: it must not fail the reading of every other RFQ
    let broken: InvalidListedRfq | undefined;
    const rfq = await port.getRfq(id, { onInvalid: (bad) => (broken = bad) });
    if (broken) {
      missing.delete(id);
      req.sink.invalid('detail', broken);
      return;
    }
    if (!rfq) return;
    missing.delete(id);
    if (rfq.labelState) req.sink.found(rfq.labelState, rfq, 'detail');
    else req.sink.unlabelled(rfq, 'detail');
  };
  const lane = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await one(id);
  };
  await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, ids.length) }, lane));
}

/**
 * One RFQ looked for in a list, page by page until found. Another RFQ's broken record is no reason to fail; this
 * one's is (its InvalidResponseError, for the caller to retry).
 */
export async function findIn(port: ListingPort, list: ListFilter, rfqId: number): Promise<ListedRfq | undefined> {
  const onInvalid = (bad: { rfqId?: number; error: Error }) => {
    if (bad.rfqId === rfqId) throw bad.error;
  };
  for await (const page of port.listRfqPages(list, { onInvalid })) {
    const found = page.rfqs.find((r) => r._id === rfqId);
    if (found) return found;
  }
  return undefined;
}

/** One RFQ by the detail call: its state from the answer; `absent` on 404, undefined when its label is unknown. */
export async function findByDetail(
  port: ListingPort,
  rfqId: number,
): Promise<{ rfq: ListedRfq; state: RfqState } | 'absent' | undefined> {
  const rfq = await port.getRfq(rfqId);
  if (!rfq) return 'absent';
  return rfq.labelState ? { rfq, state: rfq.labelState } : undefined;
}

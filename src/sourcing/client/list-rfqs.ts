/**
 * Listing RFQs (GET /v1/rfqs, optionally by status): page by page through the transport's pagination, each RFQ read
 * on its own (a schema-breaking one is reported apart), a failed page asked again when the caller wants every page.
 */
import { InvalidRequestError } from '../../core/index.ts';
import { invalidResponse, pagesOf, type ClientContext } from './context.ts';
import { parseListedRfq } from './listed-rfq.ts';
import type { InvalidListedRfq, ListRfqsOptions, RfqListPage } from '../port.ts';
import { rfqListEnvelopeSchema } from '../schemas.ts';
import { filterValue } from '../status-labels.ts';
import { pageFromLink, type FetchedPage } from '../transport/index.ts';
import { RFQ_STATUSES, type ListedRfq, type ListFilter, type RfqStatusFilter } from '../types.ts';

/** What one list page holds once read. */
interface ListPageItems {
  rfqs: ListedRfq[];
  invalid: InvalidListedRfq[];
  listSize: number | undefined;
}

export async function* listRfqPages(
  c: ClientContext,
  list: ListFilter,
  opts: ListRfqsOptions = {},
): AsyncGenerator<RfqListPage> {
  const filter = statusFilterValue(list);
  if (opts.pages === 'edges') {
    yield* edgePages(c, filter, opts);
    return;
  }
  if (opts.pages === 'backward') {
    yield* backwardPages(c, filter, opts);
    return;
  }
  const pages = pagesOf<ListPageItems>(
    c,
    'listRfqs',
    (items) => items.rfqs.length === 0 && items.invalid.length === 0,
    (page) => fetchPageWithRetry(c, filter, page, opts),
  );
  // Reported in page order, as the pages are yielded (they may be fetched out of order).
  for await (const { page, items } of pages) {
    reportInvalid(c, filter, page, items.invalid, opts.onInvalid);
    yield {
      page,
      rfqs: items.rfqs,
      ...(items.invalid.length > 0 ? { invalid: items.invalid } : {}),
      listSize: items.listSize,
    };
  }
}

/** Page 1, and the last page when `links.last` names another one. */
async function* edgePages(
  c: ClientContext,
  filter: string | undefined,
  opts: ListRfqsOptions,
): AsyncGenerator<RfqListPage> {
  const first = await fetchPageWithRetry(c, filter, 1, opts);
  reportInvalid(c, filter, 1, first.items.invalid, opts.onInvalid);
  yield { page: 1, rfqs: first.items.rfqs, listSize: first.items.listSize };
  const last = pageFromLink(first.last);
  if (last === undefined || last <= 1 || last > c.maxPages) return;
  const end = await fetchPageWithRetry(c, filter, last, opts);
  reportInvalid(c, filter, last, end.items.invalid, opts.onInvalid);
  yield { page: last, rfqs: end.items.rfqs, listSize: end.items.listSize };
}

/**
 * Page 1 (it names the last page), then the last page down to page 2, one at a time, so a reader that stops early
 * pays only for what it read. Without `links.last` (cursor-like services) the rest follows `links.next` forward.
 */
async function* backwardPages(
  c: ClientContext,
  filter: string | undefined,
  opts: ListRfqsOptions,
): AsyncGenerator<RfqListPage> {
  const read = async (page: number) => {
    const got = await fetchPageWithRetry(c, filter, page, opts);
    reportInvalid(c, filter, page, got.items.invalid, opts.onInvalid);
    return got;
  };
  const first = await read(1);
  const last = pageFromLink(first.last);
  let next = pageFromLink(first.next);
  const lastPage = last ?? (next === undefined ? 1 : undefined);
  yield { page: 1, rfqs: first.items.rfqs, listSize: first.items.listSize, ...(lastPage ? { lastPage } : {}) };
  if (last !== undefined) {
    for (let page = Math.min(last, c.maxPages); page >= 2; page--) {
      const got = await read(page);
      yield { page, rfqs: got.items.rfqs, listSize: got.items.listSize, lastPage: last };
    }
    return;
  }
  for (let prev = 1; next !== undefined && next > prev && next <= c.maxPages;) {
    const got = await read(next);
    if (got.items.rfqs.length === 0 && got.items.invalid.length === 0) return;
    const following = pageFromLink(got.next);
    yield {
      page: next,
      rfqs: got.items.rfqs,
      listSize: got.items.listSize,
      ...(following === undefined ? { lastPage: next } : {}),
    };
    [prev, next] = [next, following];
  }
}

export async function* listRfqs(
  c: ClientContext,
  status: ListFilter,
  opts: ListRfqsOptions = {},
): AsyncGenerator<ListedRfq> {
  // Offset pages can shift while read (an RFQ changes state): the same _id may show on two pages.
  const seen = new Set<number>();
  const onInvalid = opts.onInvalid;
  const reportOnce = onInvalid
    ? (bad: InvalidListedRfq) => {
        if (bad.rfqId !== undefined) {
          if (seen.has(bad.rfqId)) return;
          seen.add(bad.rfqId);
        }
        onInvalid(bad);
      }
    : undefined;
  for await (const { rfqs } of listRfqPages(c, status, { ...opts, onInvalid: reportOnce })) {
    for (const r of rfqs) {
      if (seen.has(r._id)) continue;
      seen.add(r._id);
      yield r;
    }
  }
}

/** The `status` query value of a list (undefined: the unfiltered list); an unknown state is refused. */
function statusFilterValue(list: ListFilter): string | undefined {
  if (list === 'all') return undefined;
  const f =
    typeof list === 'string' ? { state: String(list).toLowerCase() as RfqStatusFilter, form: 'lower' as const } : list;
  if (!RFQ_STATUSES.includes(f.state))
    throw new InvalidRequestError('listRfqs', `unknown status filter ${String(f.state)}`);
  return filterValue(f.state, f.form);
}

/** One page, asked again in place while `opts.pageRetry` allows (on top of the transport's GET retries). */
async function fetchPageWithRetry(
  c: ClientContext,
  filter: string | undefined,
  page: number,
  opts: ListRfqsOptions,
): Promise<FetchedPage<ListPageItems>> {
  for (let n = 1; ; n++) {
    try {
      return await fetchListPage(c, filter, page, opts.signal);
    } catch (err) {
      const r = opts.pageRetry;
      if (!r || n > r.attempts || !r.retryable(err)) throw err;
      c.logger.debug(
        { operation: 'listRfqs', status: filter, page, retry: n, error: (err as Error).message },
        'list page failed; asking it again',
      );
      await new Promise((resolve) => setTimeout(resolve, r.backoffMs(n)));
    }
  }
}

/** One page of the list, read and checked (an envelope that breaks the schema throws InvalidResponseError). */
async function fetchListPage(
  c: ClientContext,
  filter: string | undefined,
  page: number,
  signal: AbortSignal | undefined,
): Promise<FetchedPage<ListPageItems>> {
  // Deliberately alike in client/list-rfqs.ts and client/vendors.ts: each endpoint spells out its own request.
  const { json } = await c.transport.requestJson({
    operation: 'listRfqs',
    method: 'GET',
    path: '/v1/rfqs',
    query: { status: filter, page: page === 1 ? undefined : page },
    signal,
  });
  const env = rfqListEnvelopeSchema.safeParse(json);
  if (!env.success) throw invalidResponse('listRfqs', env.error);
  const listSize = env.data.meta?.total;
  // Each RFQ on its own: one bad record must not hide the rest of the page.
  const rfqs: ListedRfq[] = [];
  const invalidRfqs: InvalidListedRfq[] = [];
  env.data.rfqs.forEach((raw, i) => {
    const r = parseListedRfq(raw, i, page);
    if ('error' in r) invalidRfqs.push(r);
    else rfqs.push(r);
  });
  return {
    items: { rfqs, invalid: invalidRfqs, listSize },
    next: env.data.links?.next,
    last: env.data.links?.last,
  };
}

/** A page's schema-breaking RFQs to `onInvalid`, or the first one thrown when there is none. */
function reportInvalid(
  c: ClientContext,
  filter: string | undefined,
  page: number,
  invalid: InvalidListedRfq[],
  onInvalid: ListRfqsOptions['onInvalid'],
): void {
  for (const bad of invalid) {
    if (!onInvalid) throw bad.error;
    // Debug only: the caller reports it (the poll warns once per RFQ, with its tracking context).
    c.logger.debug(
      {
        operation: 'listRfqs',
        status: filter,
        rfqId: bad.rfqId,
        page,
        index: bad.index,
        field: bad.field,
        reason: bad.reason,
      },
      'listed RFQ breaks the schema; reported apart',
    );
    onInvalid(bad);
  }
}

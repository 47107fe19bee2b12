/**
 * What one list answer shows (ServiceBehaviour): the RFQs visible now (stored at least `listLagMs` ago, not hidden),
 * in the list's order, the page asked for (by number, or by an opaque cursor) and `meta.total` (counting hidden RFQs
 * where the service does).
 */
import type { ServiceBehaviour } from './behaviour.ts';
import type { StoredRfq } from './store.ts';

export interface ListPage {
  items: StoredRfq[];
  total: number;
  /** Query of the next page (`page=N` or `cursor=...`), undefined on the last page. */
  next: string | undefined;
  /** Query of the last page, undefined where the service does not tell it (cursor links). */
  last: string | undefined;
}

/** The page a list request asks for: `page` (1-based) or `cursor`; undefined when either is malformed. */
export function requestedOffset(url: URL, pageSize: number): number | undefined {
  const cursor = url.searchParams.get('cursor');
  if (cursor !== null) {
    const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    return m ? Number(m[1]) : undefined;
  }
  const page = url.searchParams.get('page');
  if (page === null) return 0;
  return /^[1-9]\d{0,8}$/.test(page) ? (Number(page) - 1) * pageSize : undefined;
}

export function listPage(
  all: StoredRfq[],
  b: ServiceBehaviour,
  now: number,
  offset: number,
  pageSize: number,
): ListPage {
  const lag = b.listLagMs ?? 0;
  const stored = all.filter((r) => now - r.rfq_date >= lag);
  const shown = stored.filter((r) => !r.hidden);
  const ordered = order(shown, b.listOrder ?? 'id');
  const total = b.hiddenInTotal ? stored.length : shown.length;
  const items = ordered.slice(offset, offset + pageSize);
  const more = offset + pageSize < ordered.length;
  if (b.cursorLinks) {
    const cursor = (o: number) => `cursor=${Buffer.from(`o:${o}`).toString('base64url')}`;
    return { items, total, next: more ? cursor(offset + pageSize) : undefined, last: undefined };
  }
  const lastPage = Math.max(1, Math.ceil(ordered.length / pageSize));
  const page = Math.floor(offset / pageSize) + 1;
  return { items, total, next: more ? `page=${page + 1}` : undefined, last: `page=${lastPage}` };
}

function order(rfqs: StoredRfq[], how: NonNullable<ServiceBehaviour['listOrder']>): StoredRfq[] {
  if (how === 'id') return rfqs;
  if (how === 'newest') return [...rfqs].reverse();
  return [...rfqs].sort((a, b) => Number(a.due_date) - Number(b.due_date) || a._id - b._id);
}

/** A rendered record without the fields the lists leave out (ServiceBehaviour.listOmits). */
export function withoutOmitted(rendered: Record<string, unknown>, b: ServiceBehaviour): Record<string, unknown> {
  const omits = b.listOmits ?? [];
  if (omits.length === 0) return rendered;
  if (omits.includes('lines')) {
    const { lines: _lines, ...rest } = rendered;
    return rest;
  }
  const lines = rendered.lines as Record<string, Record<string, unknown>>;
  return {
    ...rendered,
    lines: Object.fromEntries(
      Object.entries(lines).map(([k, l]) => {
        const { estimated_price: _price, ...rest } = l;
        return [k, rest];
      }),
    ),
  };
}

/**
 * The transport's pagination: page numbers read from `links.next`/`links.last`, each page then asked by number on the
 * configured base URL. Pure over a `fetchPage` callback (no HTTP here), so the walk's rules are read in one place.
 */
import type { Logger } from '../../core/index.ts';

/** The `page` number in a pagination link, or undefined when the link is absent, empty or has none. */
export function pageFromLink(link: string | null | undefined): number | undefined {
  if (link === null || link === undefined || link.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(link, 'http://relative.invalid');
  } catch {
    return undefined;
  }
  const p = url.searchParams.get('page');
  if (p === null || !/^\d+$/.test(p)) return undefined;
  const n = Number(p);
  return n >= 1 ? n : undefined;
}

/** Origin of a link, or undefined when relative or unreadable. */
export function originOfLink(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  try {
    return new URL(link).origin;
  } catch {
    return undefined;
  }
}

export interface FetchedPage<T> {
  items: T;
  next?: string | null;
  last?: string | null;
}

export interface PaginateOptions<T> {
  fetchPage: (page: number) => Promise<FetchedPage<T>>;
  /** The base URL's origin: links elsewhere are only read for their page number (and warned about once). */
  origin: string;
  maxPages: number;
  concurrency: number;
  /** Whether a page holds nothing (ends a walk that follows `next`). */
  isEmpty: (items: T) => boolean;
  logger: Logger;
  operation: string;
  /** Shared across walks so a poller warns about a foreign link origin once, not every minute. */
  originWarning?: { given: boolean };
}

type OriginCheck = (links: Array<string | null | undefined>) => void;

/**
 * All pages in order. Page numbers come from `links.next`/`links.last`; each page is requested by number on the
 * base URL (never the absolute link). Stops when `next` is absent/empty, passes `last`, repeats or goes back, when a
 * page is empty, or at `maxPages`. When `last` is known, pages 2..last are fetched concurrently, yielded in order.
 */
export async function* paginate<T>(o: PaginateOptions<T>): AsyncGenerator<{ page: number; items: T }> {
  const checkOrigin = originChecker(o);
  const first = await o.fetchPage(1);
  checkOrigin([first.next, first.last]);
  yield { page: 1, items: first.items };
  const last = pageFromLink(first.last);
  const next = pageFromLink(first.next);

  if (last !== undefined && last > 1 && next !== undefined && next <= last) {
    yield* knownExtentPages(o, last, checkOrigin);
    return;
  }
  yield* followNextLinks(o, first.items, next, last, checkOrigin);
}

/** Warns once (per shared `originWarning`) when a link names another origin than the base URL's. */
function originChecker<T>(o: PaginateOptions<T>): OriginCheck {
  const warned = o.originWarning ?? { given: false };
  return (links) => {
    if (warned.given) return;
    for (const l of links) {
      const lo = originOfLink(l);
      if (lo !== undefined && lo !== o.origin) {
        warned.given = true;
        o.logger.warn(
          { operation: o.operation, linkOrigin: lo, baseOrigin: o.origin },
          'pagination links name another origin; pages are requested on the configured base URL instead',
        );
        return;
      }
    }
  };
}

function warnPageCap<T>(o: PaginateOptions<T>, last: number): void {
  o.logger.warn(
    { operation: o.operation, last, maxPages: o.maxPages },
    'list has more pages than maxPages; the rest is not read',
  );
}

/** Known extent: fetch 2..last with bounded concurrency, yield in order. */
async function* knownExtentPages<T>(
  o: PaginateOptions<T>,
  last: number,
  checkOrigin: OriginCheck,
): AsyncGenerator<{ page: number; items: T }> {
  const end = Math.min(last, o.maxPages);
  if (last > o.maxPages) warnPageCap(o, last);
  const pending = new Map<number, Promise<FetchedPage<T>>>();
  let launched = 1;
  const launch = () => {
    while (launched < end && pending.size < o.concurrency) {
      launched++;
      const p = o.fetchPage(launched);
      p.catch(() => undefined); // surfaced when awaited in order
      pending.set(launched, p);
    }
  };
  try {
    for (let page = 2; page <= end; page++) {
      launch();
      const got = await pending.get(page)!;
      pending.delete(page);
      checkOrigin([got.next, got.last]);
      yield { page, items: got.items };
    }
  } finally {
    // an early stop or failure: let the in-flight requests finish quietly
    for (const p of pending.values()) p.catch(() => undefined);
  }
}

/** Unknown extent: follow `next` one page at a time until it ends, repeats, goes back, passes `last` or hits the cap. */
async function* followNextLinks<T>(
  o: PaginateOptions<T>,
  firstItems: T,
  firstNext: number | undefined,
  last: number | undefined,
  checkOrigin: OriginCheck,
): AsyncGenerator<{ page: number; items: T }> {
  const seen = new Set<number>([1]);
  let current = 1;
  let items = firstItems;
  let next = firstNext;
  for (;;) {
    if (next === undefined || o.isEmpty(items)) return;
    if (next <= current || seen.has(next) || (last !== undefined && next > last)) {
      if (next <= current || seen.has(next))
        o.logger.warn(
          { operation: o.operation, page: current, next },
          'pagination link repeats or goes back; stopping',
        );
      return;
    }
    if (seen.size >= o.maxPages) {
      warnPageCap(o, last ?? next);
      return;
    }
    const got = await o.fetchPage(next);
    checkOrigin([got.next, got.last]);
    seen.add(next);
    current = next;
    items = got.items;
    yield { page: current, items };
    next = pageFromLink(got.next);
  }
}

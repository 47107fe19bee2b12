/**
 * One walk of every RFQ of the account, for the reconcile (reconcile-coordinator.ts). It reports each valid RFQ
 * read as it comes (an RFQ found is found, whatever happens later) and says at the end whether the walk is
 * COMPLETE: whether it could not have missed an RFQ that existed when it began. Only a complete walk proves absence.
 *
 * Two ways, by dialect:
 *   - the unfiltered list (GET /v1/rfqs, every RFQ of the account), when the service has it. Proof: RFQs are not
 *     deleted, so the list only grows; if every page's meta.total is the same T, the list did not change between
 *     the earliest and the latest answer (page 1 is answered before pages 2.. are asked), so every page is a view
 *     of one set of T RFQs, and reading T distinct valid _ids means reading all of it, which holds every RFQ that
 *     existed when page 1 was asked. A total that changes ends the walk at once (incomplete): no page is wasted on
 *     a window that cannot close. One request per page; nothing moves between lists.
 *   - otherwise the four status lists in a PROVEN filter form, in lifecycle order, with the proof written at
 *     findRfqsWithExternalIds (rfq-creator.ts): each list's window closed by a second page 1, no _id in two lists.
 * With neither (no unfiltered list, no proven filter), no walk is ever complete: nothing is posted again after a
 * lost answer, and the requisition waits for a person (`rfq-sync resolve`).
 */
import { isRetryablePageError, ReconcileUnstableError } from '../errors.ts';
import type { Dialect } from '../sourcing/dialect.ts';
import type { SourcingPort } from '../sourcing/port.ts';
import type { ListedRfq } from '../sourcing/types.ts';

type ListingDeps = { listingClient: Pick<SourcingPort, 'listRfqPages'> };
import type { Logger } from '../logger.ts';
import type { FilterForm, RfqStatusFilter } from '../sourcing/types.ts';

export interface WalkOutcome {
  complete: boolean;
  /** Why the walk is not complete. */
  reason?: string;
  /** The list changed while read (our own or other POSTs landed): worth waiting for quiet before walking again. */
  churn?: boolean;
  /** Distinct valid RFQs read. */
  read: number;
  /** Listed records whose identity (`_id`, lines) could not be read: the walk cannot count them. */
  broken?: number;
}

export async function walkAccount(
  port: Pick<SourcingPort, 'listRfqPages'>,
  dialect: Pick<Dialect, 'unfiltered' | 'filter'>,
  limits: ReconcileLimits,
  onRfq: (rfq: ListedRfq) => void | Promise<void>,
  onPage?: () => Promise<void>,
): Promise<WalkOutcome> {
  if (dialect.unfiltered === 'yes') return walkUnfiltered(port, limits, onRfq, onPage);
  if (dialect.filter === 'none')
    return {
      complete: false,
      reason: 'no unfiltered list and no proven status filter: absence cannot be proven',
      read: 0,
    };
  const listOf = new Map<number, string>();
  const problems: string[] = [];
  let churn = false;
  let broken = 0;
  for (const status of RECONCILE_ORDER) {
    const walked = await walkList({ listingClient: port }, status, limits, dialect.filter);
    const { seen, read, unstable } = walked;
    for (const rfq of read.values()) await onRfq(rfq);
    if (unstable) {
      problems.push(unstable);
      // unreadable records keep a list from adding up whatever the wait: not churn
      if (walked.broken) broken += walked.broken;
      else churn = true;
    }
    let moved = 0;
    for (const id of seen.keys()) {
      const before = listOf.get(id);
      if (before !== undefined && before !== status) moved++;
      else listOf.set(id, status);
    }
    if (moved > 0) {
      problems.push(`${moved} RFQ(s) read in two lists (moved during the walk)`);
      churn = true;
    }
    await onPage?.();
  }
  return problems.length === 0
    ? { complete: true, read: listOf.size }
    : { complete: false, reason: problems.join('; '), churn, read: listOf.size, ...(broken ? { broken } : {}) };
}

async function walkUnfiltered(
  port: Pick<SourcingPort, 'listRfqPages'>,
  limits: ReconcileLimits,
  onRfq: (rfq: ListedRfq) => void | Promise<void>,
  onPage?: () => Promise<void>,
): Promise<WalkOutcome> {
  const seen = new Set<number>();
  let total: number | undefined;
  let broken = 0;
  const pageRetry = {
    attempts: limits.pageRetries,
    retryable: isRetryablePageError,
    backoffMs: (n: number) => backoff(limits, n - 1),
  };
  try {
    for await (const page of port.listRfqPages(null, { onInvalid: () => void broken++, pageRetry })) {
      const t = page.pageTotal ?? (page.page === 1 ? page.total : undefined);
      if (t === undefined) return { complete: false, reason: `page ${page.page} without meta.total`, read: seen.size };
      for (const r of page.rfqs) {
        seen.add(r._id);
        await onRfq(r);
      }
      if (total === undefined) total = t;
      else if (t !== total)
        return {
          complete: false,
          churn: true,
          reason: `meta.total went from ${total} to ${t} during the walk`,
          read: seen.size,
        };
      await onPage?.();
    }
  } catch (err) {
    if (!isRetryablePageError(err)) throw err;
    return { complete: false, reason: `a page kept failing: ${(err as Error).message}`, read: seen.size };
  }
  if (total === undefined) return { complete: false, reason: 'no page answered', read: 0 };
  if (seen.size !== total) {
    const why = broken > 0 ? ` (${broken} record(s) break the schema: their lines cannot be read)` : '';
    return {
      complete: false,
      churn: broken === 0,
      reason: `${seen.size} distinct RFQs read of meta.total ${total}${why}`,
      read: seen.size,
      ...(broken > 0 ? { broken } : {}),
    };
  }
  return { complete: true, read: seen.size };
}

/**
 * Order of the reconcile search: the lifecycle order (open -> closed -> cancelled -> completed; every transition
 * goes forward in it: open -> closed, open/closed -> cancelled, closed -> completed), so an RFQ changing state
 * during the search is met again in a later list instead of slipping between two. findRfqsWithExternalIds relies on it.
 */
export const RECONCILE_ORDER: readonly RfqStatusFilter[] = ['open', 'closed', 'cancelled', 'completed'];

export interface ReconcileLimits {
  /** Whole searches (all four lists) before giving up for now (ReconcileUnstableError). */
  walks: number;
  /** Passes over one list per search (re-reads, the closing check, a page failing past its retries). */
  passesPerList: number;
  /** Retries of one failed page in place (5xx past the transport's retries, reset, time-out, broken JSON). */
  pageRetries: number;
  /** First back-off step after a failed page or an unstable search, ms (doubled per step, jittered). */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long the job is set aside after `walks` inconclusive searches. */
  retryLaterMs: number;
}

export const RECONCILE_LIMITS: ReconcileLimits = {
  walks: 4,
  passesPerList: 6,
  pageRetries: 6,
  backoffMs: 100,
  maxBackoffMs: 2_000,
  retryLaterMs: 3_000,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const backoff = (l: ReconcileLimits, step: number) =>
  l.backoffMs / 2 + Math.random() * Math.min(l.maxBackoffMs, l.backoffMs * 2 ** step);

export interface ListWalk {
  /** Valid RFQs read (each _id once); only these count as seen (an RFQ read broken hides its lines). */
  seen: Map<number, ListedRfq>;
  /** Every valid RFQ read, windows restarted included: what is read exists, whatever the window (for finding). */
  read: Map<number, ListedRfq>;
  /** Why the list could not be proven complete; undefined when it was. */
  unstable?: string;
  /** Records of the last pass whose identity could not be read (they keep the list from adding up). */
  broken?: number;
}

/**
 * One status list, read until it is proven complete or the passes run out. The window of the list runs from the
 * first page-1 answer to the last one; `meta.total` is read at both ends (the closing check is one more request of
 * page 1, unless the whole list fitted in that single first answer). Complete means total(start) = total(end) =
 * number of distinct valid _ids read in the window. A page that fails (5xx, reset, time-out, broken JSON or
 * envelope) is asked again in place (pageRetry, bounded, with back-off); one that keeps failing costs a new pass
 * (what was read stays counted, since the window goes on). A changed total restarts the window.
 */
export async function walkList(
  deps: ListingDeps,
  status: RfqStatusFilter,
  limits: ReconcileLimits,
  form: FilterForm = 'lower',
): Promise<ListWalk> {
  let seen = new Map<number, ListedRfq>();
  const read = new Map<number, ListedRfq>();
  let windowTotal: number | undefined;
  let fullPassDone = false; // a pass read every page with |seen| = total: the next page 1 closes the window
  let failures = 0;
  let lastProblem = 'no pass';
  let broken = 0;
  for (let pass = 1; pass <= limits.passesPerList; pass++) {
    let windowStartedNow = false;
    let pagesThisPass = 0;
    broken = 0;
    try {
      const pageRetry = {
        attempts: limits.pageRetries,
        retryable: isRetryablePageError,
        backoffMs: (n: number) => backoff(limits, n - 1),
      };
      for await (const page of deps.listingClient.listRfqPages(
        { state: status, form },
        { onInvalid: () => void broken++, pageRetry },
      )) {
        pagesThisPass++;
        if (page.page === 1) {
          const t = page.total;
          if (t === undefined) return { seen, read, unstable: `${status}: no meta.total` };
          if (windowTotal !== undefined && fullPassDone && t === windowTotal) {
            for (const r of page.rfqs) {
              seen.set(r._id, r);
              read.set(r._id, r);
            }
            if (seen.size === t) return { seen, read };
          }
          if (windowTotal === undefined || t !== windowTotal || seen.size > t) {
            // a first read, or the list changed: a new window, nothing before it counts
            seen = new Map();
            windowTotal = t;
            windowStartedNow = true;
          }
          fullPassDone = false;
        }
        for (const r of page.rfqs) {
          seen.set(r._id, r);
          read.set(r._id, r);
        }
      }
    } catch (err) {
      if (!isRetryablePageError(err)) throw err;
      lastProblem = `${status}: ${(err as Error).message}`;
      await sleep(backoff(limits, failures++));
      continue;
    }
    if (windowTotal !== undefined && seen.size === windowTotal) {
      // the whole list in one answer (an atomic snapshot): nothing can have moved within it
      if (windowStartedNow && pagesThisPass === 1) return { seen, read };
      fullPassDone = true;
    } else {
      const why = broken > 0 ? ` (${broken} record(s) break the schema: their lines cannot be read)` : '';
      lastProblem = `${status}: ${seen.size} distinct RFQs read of meta.total ${windowTotal}${why}`;
    }
  }
  return { seen, read, unstable: lastProblem, ...(broken > 0 ? { broken } : {}) };
}

/**
 * Search the service's lists for RFQs carrying any of these external_ids. Since the claim table gives every
 * external_id to one requisition, an RFQ carrying one of them was created for that requisition.
 *
 * An RFQ found is found (whatever else happened during the search). "None" is only returned from a search that
 * could not have missed one; otherwise the search is repeated (bounded) and then ReconcileUnstableError is thrown
 * (the job waits and looks again): an unstable or incomplete search never leads to a POST.
 *
 * A search is conclusive when every list is complete (walkList: total at the start = total at the end = distinct
 * _ids read) and no _id was read in two lists. What that guarantees, assuming only that (a) a state change goes
 * forward in RECONCILE_ORDER, (b) RFQs are not deleted, (c) `meta.total` is the size of the list when that answer
 * was made and a page lists RFQs in that state at that moment; nothing about the order within a list, the page
 * size or where RFQs enter a list (creation, a state change) is assumed:
 *   1. Within one list's window: let Res be the RFQs in the list throughout it, D those there at its start that
 *      left, E those that entered and stayed. total(start) = |Res|+|D|, total(end) = |Res|+|E|. If no RFQ read
 *      left during the window, every one read is in Res or E, and reading |Res|+|E| distinct ones means reading
 *      all of Res. So an RFQ of the list that stayed throughout is missed only if some RFQ read there left during
 *      the window (enter+leave pairs that keep the total are covered: the leaver was read, or nothing was missed).
 *   2. An RFQ that exists at the start of the search is, for some list L, in L throughout L's window (its state
 *      only moves forward and the windows are walked in that order).
 *   3. From the last list back: the last list (completed) has nobody leaving it, so by 1 its walk holds every RFQ
 *      staying in it. For an earlier list, an RFQ read there that left during the window moved to a later list and
 *      stays in some later list throughout that list's window (2), where it is read again (by induction): an
 *      _id read in two lists, which makes the search inconclusive. Hence in a conclusive search, by 1 and 2 every
 *      RFQ that existed when the search began was read - in particular one posted by an earlier attempt whose
 *      answer was lost (that POST ended before this attempt got the claim; see the post lease).
 * Cost: each list one extra request of page 1 (not for a list that fits in one page); churn makes searches
 * inconclusive (then repeated after a back-off), never wrong.
 */
export async function findRfqsWithExternalIds(
  deps: ListingDeps & { reconcileLimits?: ReconcileLimits; logger?: Logger },
  externalIds: readonly string[],
): Promise<Array<{ rfq: ListedRfq; status: RfqStatusFilter }>> {
  const limits = deps.reconcileLimits ?? RECONCILE_LIMITS;
  const wanted = new Set(externalIds);
  let why = '';
  for (let walk = 0; walk < limits.walks; walk++) {
    if (walk > 0) await sleep(backoff(limits, walk));
    const found = new Map<number, { rfq: ListedRfq; status: RfqStatusFilter }>();
    const listOf = new Map<number, RfqStatusFilter>();
    const problems: string[] = [];
    for (const status of RECONCILE_ORDER) {
      // Each page takes its permit in the client (WorkerContext.limiter); a 429 holds everyone off there too.
      const { seen, read, unstable } = await walkList(deps, status, limits);
      if (unstable) problems.push(unstable);
      let moved = 0;
      for (const rfq of seen.values()) {
        const before = listOf.get(rfq._id);
        if (before !== undefined && before !== status) moved++;
        else listOf.set(rfq._id, status);
      }
      for (const rfq of read.values()) {
        if (!found.has(rfq._id) && rfq.lines.some((l) => l.external_id !== undefined && wanted.has(l.external_id)))
          found.set(rfq._id, { rfq, status });
      }
      if (moved > 0) problems.push(`${moved} RFQ(s) read in two lists (moved during the search)`);
    }
    if (found.size > 0) return [...found.values()].sort((a, b) => a.rfq._id - b.rfq._id);
    if (problems.length === 0) return [];
    why = problems.join('; ');
    deps.logger?.debug(
      { event: 'reconcile.inconclusive', walk: walk + 1, of: limits.walks, why },
      'reconcile search inconclusive; searching again',
    );
  }
  throw new ReconcileUnstableError(why, limits.retryLaterMs);
}

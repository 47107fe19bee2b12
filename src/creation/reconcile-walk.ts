/**
 * One walk of every RFQ of the account, for the reconcile (reconcile-coordinator.ts). It reports each valid RFQ
 * read as it comes (an RFQ found is found, whatever happens later) and says at the end whether the walk is
 * COMPLETE: whether it could not have missed an RFQ that was in the lists throughout it. Only a complete walk
 * proves absence (docs/architecture.md#proof).
 *
 * A list is read in passes (every page in order), until two passes in a row read the same: the same _ids in the
 * same order on every page, the same meta.total on every page, the same number of pages. Only then is it trusted,
 * and complete when it holds as many distinct valid RFQs as its meta.total says. A list of one page is one answer
 * (a snapshot): one pass is enough. A list that differs between every two passes (it moves: RFQs arriving,
 * leaving, re-sorted) is not trusted (churn); one that holds fewer RFQs than its total (hidden RFQs counted in the
 * total, records that break the schema, pages not followed) is not complete.
 *
 * Which lists together hold every RFQ the account's listing strategy says (src/sourcing/account-reading.ts: the
 * unfiltered list, or the four state lists in a proven filter form and lifecycle order). Read as several lists,
 * the walk is complete only when no _id was read in two of them. Without such lists no walk is ever complete.
 */
import { isRetryablePageError } from '../core/index.ts';
import type { SourcingPort, ListedRfq, ListFilter } from '../sourcing/index.ts';

export interface WalkOutcome {
  complete: boolean;
  /** Why the walk is not complete. */
  reason?: string;
  /** The lists changed while read (RFQs arriving, leaving, re-sorted): worth waiting for quiet before walking again. */
  churn?: boolean;
  /** Distinct valid RFQs in the trusted read (the last pass of each list). */
  read: number;
  /** Listed records whose identity (`_id`, lines) could not be read: the walk cannot count them. */
  broken?: number;
}

type Lister = Pick<SourcingPort, 'listRfqPages'>;
type OnRfq = (rfq: ListedRfq) => void | Promise<void>;

/** `lists`: the listing strategy's `accountLists`, the lists that together hold every RFQ of the account. */
export async function walkAccount(
  port: Lister,
  lists: readonly ListFilter[] | undefined,
  limits: ReconcileLimits,
  onRfq: OnRfq,
  onPage?: () => Promise<void>,
): Promise<WalkOutcome> {
  if (lists === undefined || lists.length === 0)
    return {
      complete: false,
      reason: 'no unfiltered list and no proven status filter: absence cannot be proven',
      read: 0,
    };
  const listOf = new Map<number, number>();
  const problems: string[] = [];
  let churn = false;
  let broken = 0;
  for (const [i, list] of lists.entries()) {
    const l = await readStableList(port, list, limits, onRfq, onPage);
    if (!l.complete) {
      problems.push(lists.length > 1 ? `${listName(list)}: ${l.reason}` : (l.reason ?? 'incomplete'));
      churn ||= l.churn;
      broken += l.broken ?? 0;
    }
    let moved = 0;
    for (const id of l.ids) {
      const before = listOf.get(id);
      if (before !== undefined && before !== i) moved++;
      else listOf.set(id, i);
    }
    if (moved > 0) {
      problems.push(`${moved} RFQ(s) read in two lists (moved during the walk)`);
      churn = true;
    }
  }
  return problems.length === 0
    ? { complete: true, read: listOf.size }
    : { complete: false, reason: problems.join('; '), churn, read: listOf.size, ...(broken ? { broken } : {}) };
}

/** What a list's passes ended with. */
export interface ListRead {
  complete: boolean;
  churn: boolean;
  reason?: string;
  /** Valid _ids of the last pass. */
  ids: Set<number>;
  passes: number;
  /** Records of the trusted pass whose identity could not be read. */
  broken?: number;
}

/** One pass: per page its _ids in order and meta.total; schema-breaking records counted. */
interface Pass {
  pages: Array<{ ids: number[]; total: number | undefined }>;
  ids: Set<number>;
  invalid: number;
}

/**
 * A list read until two passes in a row read the same (or one page held it whole), within `limits.passesPerList`.
 * A page that keeps failing past its retries costs a pass.
 */
export async function readStableList(
  port: Lister,
  list: ListFilter,
  limits: ReconcileLimits,
  onRfq: OnRfq,
  onPage?: () => Promise<void>,
): Promise<ListRead> {
  let prev: Pass | undefined;
  let failures = 0;
  let lastProblem = 'no pass read';
  for (let n = 1; n <= limits.passesPerList; n++) {
    const pass = await readPass(port, list, limits, onRfq, onPage);
    if ('failed' in pass) {
      lastProblem = `a page kept failing: ${pass.failed}`;
      prev = undefined;
      await sleep(backoff(limits, failures++));
      continue;
    }
    const onePage = pass.pages.length === 1 && prev === undefined;
    if (onePage || (prev !== undefined && samePass(prev, pass))) return verdict(pass, n);
    lastProblem = prev === undefined ? 'read once' : 'the list changed between two reads';
    prev = pass;
  }
  return {
    complete: false,
    churn: lastProblem.startsWith('the list changed'),
    reason: `${lastProblem} (${limits.passesPerList} reads)`,
    ids: prev?.ids ?? new Set(),
    passes: limits.passesPerList,
  };
}

/** A stable pass: complete when it holds every RFQ its meta.total counts, each one readable. */
function verdict(p: Pass, passes: number): ListRead {
  const total = p.pages[0]?.total;
  if (total === undefined)
    return { complete: false, churn: false, reason: 'no meta.total: cannot tell it whole', ids: p.ids, passes };
  if (p.pages.some((page) => page.total !== undefined && page.total !== total))
    return { complete: false, churn: true, reason: 'meta.total changed during a read', ids: p.ids, passes };
  if (p.invalid > 0)
    return {
      complete: false,
      churn: false,
      reason: `${p.invalid} record(s) break the schema: their lines cannot be read`,
      ids: p.ids,
      passes,
      broken: p.invalid,
    };
  if (p.ids.size !== total)
    return {
      complete: false,
      churn: false,
      reason: `${p.ids.size} distinct RFQs listed of meta.total ${total} (hidden RFQs counted in the total, or pages not followed)`,
      ids: p.ids,
      passes,
    };
  return { complete: true, churn: false, ids: p.ids, passes };
}

function samePass(a: Pass, b: Pass): boolean {
  if (a.pages.length !== b.pages.length || a.invalid !== b.invalid) return false;
  return a.pages.every((pa, i) => {
    const pb = b.pages[i]!;
    return pa.total === pb.total && pa.ids.length === pb.ids.length && pa.ids.every((id, j) => pb.ids[j] === id);
  });
}

async function readPass(
  port: Lister,
  list: ListFilter,
  limits: ReconcileLimits,
  onRfq: OnRfq,
  onPage?: () => Promise<void>,
): Promise<Pass | { failed: string }> {
  const pass: Pass = { pages: [], ids: new Set(), invalid: 0 };
  const pageRetry = {
    attempts: limits.pageRetries,
    retryable: isRetryablePageError,
    backoffMs: (n: number) => backoff(limits, n - 1),
  };
  try {
    for await (const page of port.listRfqPages(list, { onInvalid: () => void pass.invalid++, pageRetry })) {
      // an invalid record still holds its place in the order (its _id when readable)
      const ids = [...page.rfqs.map((r) => r._id), ...(page.invalid ?? []).map((b) => b.rfqId ?? -1)];
      const total = page.listSize;
      pass.pages.push({ ids, total });
      for (const r of page.rfqs) {
        pass.ids.add(r._id);
        await onRfq(r);
      }
      await onPage?.();
      // the list changed under this pass: the rest of it cannot agree with anything, read again
      if (total !== undefined && pass.pages[0]!.total !== undefined && total !== pass.pages[0]!.total) break;
    }
  } catch (err) {
    if (!isRetryablePageError(err)) throw err;
    return { failed: (err as Error).message };
  }
  return pass;
}

const listName = (list: ListFilter) => (typeof list === 'string' ? list : list.state);

export interface ReconcileLimits {
  /** Passes over one list per walk (re-reads until two agree, a page failing past its retries). */
  passesPerList: number;
  /** Retries of one failed page in place (5xx past the transport's retries, reset, time-out, broken JSON). */
  pageRetries: number;
  /** First back-off step after a failed page or an incomplete walk, ms (doubled per step, jittered). */
  backoffMs: number;
  maxBackoffMs: number;
}

export const RECONCILE_LIMITS: ReconcileLimits = {
  passesPerList: 4,
  pageRetries: 6,
  backoffMs: 100,
  maxBackoffMs: 2_000,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const backoff = (l: ReconcileLimits, step: number) =>
  l.backoffMs / 2 + Math.random() * Math.min(l.maxBackoffMs, l.backoffMs * 2 ** step);

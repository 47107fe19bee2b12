/**
 * Exactly one RFQ per requisition: the claim / reconcile / post / record sequence of design.md, on top of the
 * idempotency store. Job plumbing (BullMQ retries, delays) is the caller's (jobs/create-rfq.ts); this module only
 * says what happened, or throws what the caller must act on:
 *   - AttemptBusyError: another attempt holds the requisition (it may be posting): try again after waitMs;
 *   - ThrottledError (rate-limiter.ts): calls are held (rate limit, Retry-After): try again after waitMs;
 *   - AuthError, RateLimitError, TransientHttpError, Redis errors: as thrown by the client / ioredis.
 * A permanent refusal is not thrown: it is recorded (`rejected`) and returned.
 */
import { randomUUID } from 'node:crypto';
import { AuthError, ClaimConflictError, InvalidResponseError, isRetryablePageError, PermanentHttpError, RateLimitError, RfqSyncError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Requisition, RequisitionLine } from '../requisition.ts';
import type { SourcingClient } from '../sourcing/client.ts';
import type { CreateRfqRequest, ListedRfq, RfqStatusFilter } from '../sourcing/types.ts';
import { hashOf, lineFingerprint, type IdempotencyStore, type LineChange, type LineFingerprint } from './idempotency-store.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { requisitionId } from './redis-keys.ts';

/**
 * Order of the reconcile search: the lifecycle order (open -> closed -> cancelled -> completed; every transition
 * goes forward in it: open -> closed, open/closed -> cancelled, closed -> completed), so an RFQ changing state
 * during the search is met again in a later list instead of slipping between two. findRfqsWithExternalIds relies on it.
 */
export const RECONCILE_ORDER: readonly RfqStatusFilter[] = ['open', 'closed', 'cancelled', 'completed'];

export class AttemptBusyError extends Error {
  readonly waitMs: number;
  constructor(id: string, waitMs: number) {
    super(`requisition ${id} is being created by another attempt; looking again in ${waitMs} ms`);
    this.name = 'AttemptBusyError';
    this.waitMs = waitMs;
  }
}

/**
 * The reconcile search could not prove that no RFQ carries the external_ids (the lists kept changing, or pages kept
 * failing): nothing is posted; the job is set aside like a busy attempt (an AttemptBusyError) and looks again later.
 */
export class ReconcileUnstableError extends AttemptBusyError {
  readonly reason: string;
  constructor(reason: string, waitMs: number) {
    super('(reconcile)', waitMs);
    this.name = 'ReconcileUnstableError';
    this.reason = reason;
    this.message = `reconcile search inconclusive (${reason}); nothing posted, looking again in ${waitMs} ms`;
  }
}

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

export const RECONCILE_LIMITS: ReconcileLimits = { walks: 4, passesPerList: 6, pageRetries: 6, backoffMs: 100, maxBackoffMs: 2_000, retryLaterMs: 3_000 };

export interface CreateOutcome {
  requisitionId: string;
  /** created: posted now; adopted: found at the service after a lost answer; existing: created earlier. */
  status: 'created' | 'adopted' | 'existing' | 'rejected';
  rfqId?: number;
  reason?: string;
  changes?: LineChange[];
  supplements?: CreateOutcome[];
}

export interface CreatorDeps {
  store: IdempotencyStore;
  client: Pick<SourcingClient, 'createRfq'>;
  /** For the reconcile search, page by page through the limiter (see WorkerContext.listingClient). */
  listingClient: Pick<SourcingClient, 'listRfqPages'>;
  limiter: RateLimiter;
  logger: Logger;
  /** Lease held while posting: longer than the longest a POST can take (client time-outs) plus a margin. */
  postLeaseMs: number;
  /** Lease held from claim to post (reconcile, waiting for a permit). */
  claimLeaseMs: number;
  /** Called after an RFQ is recorded (or found recorded): start tracking it. Idempotent. */
  track(rfqId: number, r: Requisition): Promise<unknown>;
  /** Bounds of the reconcile search; default RECONCILE_LIMITS. */
  reconcileLimits?: ReconcileLimits;
}

export function toCreateRfqRequest(r: Requisition): CreateRfqRequest {
  return {
    title: r.title,
    due_date: String(r.due_date),
    ...(r.required_date !== undefined ? { required_date: String(r.required_date) } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    rfq_type: r.rfq_type,
    ...(r.rfq_category !== undefined ? { rfq_category: r.rfq_category } : {}),
    ...(r.rfq_location !== undefined ? { rfq_location: r.rfq_location } : {}),
    lines: r.lines.map((l) => ({
      product_name: l.product_name,
      ...(l.specification !== undefined ? { specification: l.specification } : {}),
      ...(l.uom !== undefined ? { uom: l.uom } : {}),
      qty: l.qty,
      ...(l.estimated_price !== undefined ? { estimated_price: l.estimated_price } : {}),
      external_id: l.external_id,
    })),
  };
}

/** Hash of what would be posted: the same requisition in two files with the same content has the same hash. */
export function contentHashOf(r: Requisition): string {
  return hashOf(toCreateRfqRequest(r), 24);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (l: ReconcileLimits, step: number) => l.backoffMs / 2 + Math.random() * Math.min(l.maxBackoffMs, l.backoffMs * 2 ** step);

interface ListWalk {
  /** Valid RFQs read (each _id once); only these count as seen (an RFQ read broken hides its lines). */
  seen: Map<number, ListedRfq>;
  /** Every valid RFQ read, windows restarted included: what is read exists, whatever the window (for finding). */
  read: Map<number, ListedRfq>;
  /** Why the list could not be proven complete; undefined when it was. */
  unstable?: string;
}

/**
 * One status list, read until it is proven complete or the passes run out. The window of the list runs from the
 * first page-1 answer to the last one; `meta.total` is read at both ends (the closing check is one more request of
 * page 1, unless the whole list fitted in that single first answer). Complete means total(start) = total(end) =
 * number of distinct valid _ids read in the window. A page that fails (5xx, reset, time-out, broken JSON or
 * envelope) is asked again in place (pageRetry, bounded, with back-off); one that keeps failing costs a new pass
 * (what was read stays counted, since the window goes on). A changed total restarts the window.
 */
async function walkList(deps: Pick<CreatorDeps, 'listingClient'>, status: RfqStatusFilter, limits: ReconcileLimits): Promise<ListWalk> {
  let seen = new Map<number, ListedRfq>();
  const read = new Map<number, ListedRfq>();
  let windowTotal: number | undefined;
  let fullPassDone = false; // a pass read every page with |seen| = total: the next page 1 closes the window
  let failures = 0;
  let lastProblem = 'no pass';
  for (let pass = 1; pass <= limits.passesPerList; pass++) {
    let windowStartedNow = false;
    let pagesThisPass = 0;
    try {
      const pageRetry = { attempts: limits.pageRetries, retryable: isRetryablePageError, backoffMs: (n: number) => backoff(limits, n - 1) };
      for await (const page of deps.listingClient.listRfqPages(status, { onInvalid: () => undefined, pageRetry })) {
        pagesThisPass++;
        if (page.page === 1) {
          const t = page.total;
          if (t === undefined) return { seen, read, unstable: `${status}: no meta.total` };
          if (windowTotal !== undefined && fullPassDone && t === windowTotal) {
            for (const r of page.rfqs) (seen.set(r._id, r), read.set(r._id, r));
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
        for (const r of page.rfqs) (seen.set(r._id, r), read.set(r._id, r));
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
      lastProblem = `${status}: ${seen.size} distinct RFQs read of meta.total ${windowTotal}`;
    }
  }
  return { seen, read, unstable: lastProblem };
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
  deps: Pick<CreatorDeps, 'listingClient' | 'limiter'> & { reconcileLimits?: ReconcileLimits; logger?: Logger },
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
        if (!found.has(rfq._id) && rfq.lines.some((l) => l.external_id !== undefined && wanted.has(l.external_id))) found.set(rfq._id, { rfq, status });
      }
      if (moved > 0) problems.push(`${moved} RFQ(s) read in two lists (moved during the search)`);
    }
    if (found.size > 0) return [...found.values()].sort((a, b) => a.rfq._id - b.rfq._id);
    if (problems.length === 0) return [];
    why = problems.join('; ');
    deps.logger?.debug({ event: 'reconcile.inconclusive', walk: walk + 1, of: limits.walks, why }, 'reconcile search inconclusive; searching again');
  }
  throw new ReconcileUnstableError(why, limits.retryLaterMs);
}

export async function createRfqOnce(deps: CreatorDeps, r: Requisition): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const token = randomUUID();
  const contentHash = contentHashOf(r);
  const log = deps.logger.child({ requisition: id, sourceFile: r.sourceFile });
  const claim = await deps.store.claim(r, token, contentHash, deps.claimLeaseMs, { limiter: deps.limiter, postLeaseMs: deps.postLeaseMs });

  switch (claim.status) {
    case 'busy':
      throw new AttemptBusyError(id, claim.waitMs);
    case 'rejected':
      return { requisitionId: id, status: 'rejected', reason: claim.reason };
    case 'conflict': {
      const err = new ClaimConflictError(id, claim.conflicts);
      // Recorded as rejected unless an earlier attempt may have posted (`creating`): that record stays, so a
      // corrected export still reconciles it. Either way this export is refused and reported.
      await deps.store.reject(r, '', err.message, contentHash);
      log.warn({ event: 'requisition.rejected', conflicts: claim.conflicts }, err.message);
      return { requisitionId: id, status: 'rejected', reason: err.message };
    }
    case 'created':
      await deps.track(claim.rfqId, r);
      return settleExisting(deps, r, claim.rfqId, 'existing');
    case 'claimed':
      break;
  }

  try {
    return await afterClaim(deps, log, r, claim.previous, claim.claimed, claim.posting, token, contentHash);
  } catch (err) {
    // Hand the requisition back at once instead of letting the next attempt wait out the lease (state unchanged).
    await deps.store.endAttempt(id, token, 'release').catch(() => undefined);
    throw err;
  }
}

async function afterClaim(
  deps: CreatorDeps,
  log: Logger,
  r: Requisition,
  previous: string | undefined,
  claimed: string[],
  posting: boolean,
  token: string,
  contentHash: string,
): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const claim = { previous, claimed };
  if (claim.previous === 'creating') {
    // An earlier attempt may have posted and lost the answer: look before posting again.
    let found: Awaited<ReturnType<typeof findRfqsWithExternalIds>>;
    try {
      found = await findRfqsWithExternalIds(deps, claim.claimed);
    } catch (err) {
      if (err instanceof ReconcileUnstableError) {
        log.info({ event: 'reconcile.inconclusive', reason: err.reason, waitMs: err.waitMs }, `requisition ${id}: ${err.message}`);
      }
      throw err; // still `creating`: the next attempt searches again
    }
    const first = found[0];
    if (first) {
      if (found.length > 1) {
        log.error({ event: 'requisition.duplicates', rfqIds: found.map((f) => f.rfq._id) }, `requisition ${id} has ${found.length} RFQs at the service; adopting the first`);
      }
      const byExt = new Map(r.lines.map((l) => [l.external_id, l]));
      const lines: Array<{ line: RequisitionLine; position: number }> = [];
      for (const l of first.rfq.lines) {
        const ours = l.external_id !== undefined ? byExt.get(l.external_id) : undefined;
        // the RFQ as it is at the service is what we compare later re-exports against
        lines.push({ line: ours ?? listedAsLine(l), position: l.position });
      }
      const inRfq = new Set(first.rfq.lines.map((l) => l.external_id));
      const release = claim.claimed.filter((e) => !inRfq.has(e));
      const rec = await deps.store.record(r, first.rfq._id, lines.filter((x) => x.line.external_id !== ''), 'adopted', release);
      const rfqId = rec.status === 'duplicate' ? rec.existingRfqId : first.rfq._id;
      log.info({ event: 'rfq.adopted', rfqId, listedAs: first.status }, `requisition ${id}: found RFQ ${rfqId} from an earlier attempt whose answer was lost; nothing posted`);
      await deps.track(rfqId, r);
      return settleExisting(deps, r, rfqId, 'adopted');
    }
    await deps.store.markReconciled(id, token);
  }

  if (!posting) {
    // the claim could not take a permit too (none free, or a reconcile came first): take one now, before the
    // post lease starts (the POST below goes out on this permit)
    await deps.limiter.acquire();
    if (!(await deps.store.beginPost(id, token, deps.postLeaseMs))) {
      throw new AttemptBusyError(id, 1_000); // our lease ran out while waiting: another attempt has it now
    }
  }
  let rfqId: number;
  try {
    // One permit per call: taken by the claim script or just above, so the client does not take another.
    rfqId = (await deps.client.createRfq(toCreateRfqRequest(r), { permitHeld: true }))._id;
  } catch (err) {
    if (err instanceof PermanentHttpError || (err instanceof RfqSyncError && err.kind === 'data')) {
      // The service (or our own check before sending) refused it: nothing was created.
      await deps.store.reject(r, token, err.message, contentHash);
      log.warn({ event: 'requisition.rejected', err }, `requisition ${id} rejected: ${err.message}`);
      return { requisitionId: id, status: 'rejected', reason: err.message };
    }
    if (err instanceof RateLimitError || err instanceof AuthError) {
      // (a Retry-After already holds everyone off: the client's onRetryAfter)
      await deps.store.endAttempt(id, token, 'pending');
    } else {
      // 5xx, reset, time-out, anything else: the RFQ may exist. The next attempt reconciles.
      await deps.store.endAttempt(id, token, 'creating');
    }
    throw err;
  }
  // Tracking starts alongside the record (one round trip): a crash between the two leaves a tracked RFQ whose
  // requisition is still `creating`, which the next attempt adopts - never a second RFQ.
  const [rec] = await Promise.all([deps.store.record(r, rfqId, r.lines.map((line, position) => ({ line, position })), 'posted', []), deps.track(rfqId, r)]);
  if (rec.status === 'duplicate') {
    log.error({ event: 'requisition.duplicate', rfqId, existingRfqId: rec.existingRfqId }, `requisition ${id}: RFQ ${rfqId} created although RFQ ${rec.existingRfqId} was recorded for it (an attempt outlived its lease)`);
  } else {
    log.info({ event: 'rfq.created', rfqId, lines: r.lines.length }, `requisition ${id}: RFQ ${rfqId} created`);
  }
  if (rec.status === 'duplicate') await deps.track(rec.existingRfqId, r);
  return { requisitionId: id, status: 'created', rfqId };
}

function listedAsLine(l: ListedRfq['lines'][number]): RequisitionLine {
  return {
    external_id: l.external_id ?? '',
    product_name: l.product_name ?? '',
    specification: l.specification,
    uom: l.uom,
    qty: l.qty ?? 0,
    estimated_price: l.estimated_price !== undefined ? Number(l.estimated_price) : undefined,
    row: 0,
  };
}

const FIELDS = ['product_name', 'specification', 'uom', 'qty', 'estimated_price'] as const;

/**
 * The requisition already has its RFQ: compare the lines it arrives with now against the RFQ's. Changed lines are
 * reported (the service cannot update an RFQ); lines with new external_ids become a supplementary RFQ, itself a
 * requisition `${key}#supp-<hash of its external_ids>` going through the same protocol.
 */
async function settleExisting(deps: CreatorDeps, r: Requisition, rfqId: number, status: 'existing' | 'adopted'): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const rec = await deps.store.get(id);
  const inRfq = rec?.lines ?? {};
  const changes: LineChange[] = [];
  const others: RequisitionLine[] = [];
  for (const line of r.lines) {
    const was: LineFingerprint | undefined = inRfq[line.external_id];
    if (!was) {
      others.push(line);
      continue;
    }
    const now = lineFingerprint(line);
    const fields = FIELDS.flatMap((field, i) => (was[i] === now[i] ? [] : [{ field, was: was[i] ?? null, now: now[i] ?? null }]));
    if (fields.length > 0) changes.push({ externalId: line.external_id, kind: 'changed', fields });
  }

  const supplements: CreateOutcome[] = [];
  if (others.length > 0) {
    const holders = await deps.store.holders(others.map((l) => l.external_id));
    const suppPrefix = `${id}#supp-`;
    const bySupplement = new Map<string, RequisitionLine[]>();
    const fresh: RequisitionLine[] = [];
    others.forEach((line, i) => {
      const holder = holders[i];
      if (holder === undefined || holder === id) fresh.push(line);
      else if (holder.startsWith(suppPrefix)) bySupplement.set(holder, [...(bySupplement.get(holder) ?? []), line]);
      else changes.push({ externalId: line.external_id, kind: 'conflict', heldBy: holder });
    });
    const groups: Array<{ key: string; lines: RequisitionLine[] }> = [];
    for (const [holder, lines] of bySupplement) groups.push({ key: holder.slice(`${r.profile}/`.length), lines });
    if (fresh.length > 0) {
      const ids = fresh.map((l) => l.external_id).sort();
      groups.push({ key: `${r.key}#supp-${hashOf(ids, 10)}`, lines: fresh });
    }
    for (const g of groups) {
      const supp: Requisition = { ...r, key: g.key, lines: g.lines };
      await deps.store.addSupplement(id, requisitionId(supp));
      supplements.push(await createRfqOnce(deps, supp));
    }
  }

  if (changes.length > 0) {
    await deps.store.saveChanges(id, changes);
    deps.logger.warn(
      { event: 'requisition.changed', requisition: id, rfqId, changes },
      `requisition ${id} was exported again with ${changes.length} changed line(s) after RFQ ${rfqId} was created; ` +
        'the service cannot update an RFQ: change it there by hand if needed',
    );
  }
  return { requisitionId: id, status, rfqId, ...(changes.length ? { changes } : {}), ...(supplements.length ? { supplements } : {}) };
}

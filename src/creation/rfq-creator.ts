/**
 * Exactly one RFQ per requisition: the claim / reconcile / post / record sequence of
 * docs/architecture.md#the-protocol, on top of the
 * idempotency store. Job plumbing (BullMQ retries, delays) is the caller's (jobs/create-rfq.ts); this module only
 * says what happened, or throws what the caller must act on:
 *   - AttemptBusyError: another attempt holds the requisition (it may be posting), or the lists must settle or be
 *     walked first (ReconcileUnstableError): try again after waitMs;
 *   - ThrottledError: calls are held (rate limit, Retry-After): try again after waitMs;
 *   - AuthError, RateLimitError, TransientHttpError, Redis errors: as thrown by the client / ioredis.
 * A permanent refusal is not thrown: it is recorded (`rejected`) and returned.
 *
 * The lease holds until the POST is answered: it is taken for the whole POST (its deadline, the replica wait, a
 * margin), the POST's own deadline is what remains of it when the request goes out, and a lease found spent by then
 * (the host paused) sends nothing.
 */
import { randomUUID } from 'node:crypto';
import {
  AttemptBusyError,
  AuthError,
  ClaimConflictError,
  PermanentHttpError,
  RateLimitError,
  RfqSyncError,
  type Logger,
  type Requisition,
} from '../core/index.ts';
import type { SourcingClient } from '../sourcing/client/index.ts';
import { type IdempotencyStore } from './idempotency-store.ts';
import type { RateLimiter } from '../account/index.ts';
import type { ReconcileCoordinator } from './reconcile-coordinator.ts';
import { postedBodyOf } from './fingerprint.ts';
import type { HeaderPusher } from './header-push.ts';
import { requisitionId } from '../redis/index.ts';
import { adoptedLines } from './adoption.ts';
import { headerOf, type PostedBody, toCreateRfqRequest } from '../requisitions/index.ts';
import { settleExisting, type CreateOutcome, type SettleDeps } from './settle-existing.ts';
import { type AuditSink, createAnswered } from '../audit/index.ts';
import { hashOf } from './hash.ts';
import type { PendingEntry, ReconcileResult } from './reconcile-decision.ts';

/** Kept of the post lease beyond the POST's deadline: the answer is read and the clocks may drift a little. */
const LEASE_MARGIN_MS = 1_000;
/** A POST with less than this left of its lease is not sent. */
const MIN_POST_MS = 1_000;

export interface CreatorDeps extends SettleDeps {
  store: IdempotencyStore;
  client: Pick<SourcingClient, 'createRfq'>;
  limiter: RateLimiter;
  logger: Logger;
  /** The longest one POST may take (SOURCING_CALL_DEADLINE_MS). */
  postDeadlineMs: number;
  /**
   * Lease held while posting: the POST's deadline plus what may come between the lease and the request (the replica
   * wait, REDIS_WAIT_TIMEOUT_MS) plus a margin.
   */
  postLeaseMs: number;
  /** Lease held from claim to post (reconcile, waiting for a permit). */
  claimLeaseMs: number;
  /** Called after an RFQ is recorded (or found recorded): start tracking it. Idempotent. */
  track(rfqId: number, r: Requisition): Promise<unknown>;
  /** One walk of the account for many lost answers (reconcile-coordinator.ts): the only way to reconcile. */
  reconciler: ReconcileCoordinator;
  /**
   * Resolves when the claim is on the Redis replicas (REDIS_WAIT_REPLICAS) so a failover cannot forget it once the
   * POST is out; throws a transient error otherwise (the job retries). Absent: no wait (a single Redis).
   */
  replicated?: (what: string) => Promise<void>;
  /** Pushes a re-export's header changes with the edit call (PUSH_HEADER_CHANGES); absent: they are only reported. */
  headerPusher?: HeaderPusher;
  /** The audit log: the service's answer to a create is a line before the RFQ is recorded (src/audit/). */
  audit?: AuditSink | undefined;
  /** Our RFQ was posted and recorded; its create was answered at `answeredAt` (this host's ms): the list-lag probe. */
  onPosted?(rfqId: number, answeredAt: number): void;
}

/** Hash of what would be posted: the same requisition in two files with the same content has the same hash. */
export function contentHashOf(r: Requisition): string {
  return hashOf(toCreateRfqRequest(r), 24);
}

export async function createRfqOnce(deps: CreatorDeps, r: Requisition): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const token = randomUUID();
  const contentHash = contentHashOf(r);
  const posted = postedBodyOf(toCreateRfqRequest(r));
  const log = deps.logger.child({ requisition: id, sourceFile: r.sourceFile });
  const createOnce = (x: Requisition) => createRfqOnce(deps, x);
  const claimedAt = performance.now(); // a claim that begins the post starts its lease no earlier than this
  const claim = await deps.store.claim(
    r,
    token,
    contentHash,
    deps.claimLeaseMs,
    { limiter: deps.limiter, postLeaseMs: deps.postLeaseMs },
    posted,
  );

  switch (claim.status) {
    case 'busy':
      throw new AttemptBusyError(id, claim.waitMs);
    case 'rejected':
      return { requisitionId: id, status: 'rejected', reason: claim.reason };
    case 'undecided':
      return { requisitionId: id, status: 'undecided', reason: claim.reason };
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
      return settleExisting(deps, r, claim.rfqId, 'existing', createOnce);
    case 'claimed':
      break;
  }

  const a: Attempt = { id, r, log, token, contentHash, posted, createOnce };
  try {
    if (claim.previous === 'creating') {
      const settled = await reconcileByWalk(deps, a, claim.claimed);
      if (settled) return settled;
    }
    const leaseFrom = await readyToPost(deps, a, claim.posting ? claimedAt : undefined);
    return await postAndRecord(deps, a, leaseFrom);
  } catch (err) {
    // Hand the requisition back at once instead of letting the next attempt wait out the lease (state unchanged).
    await deps.store.endAttempt(id, token, 'release').catch(() => undefined);
    throw err;
  }
}

/** One attempt at a requisition, once it holds the claim: what the steps below share. */
interface Attempt {
  id: string;
  r: Requisition;
  /** The logger with the requisition and its file. */
  log: Logger;
  /** The attempt's lease token. */
  token: string;
  contentHash: string;
  /** The body it posts, as kept with the record (fingerprint.ts). */
  posted: PostedBody;
  createOnce: (r: Requisition) => Promise<CreateOutcome>;
}

/**
 * The requisition was `creating`: ask the coordinator's walk whether its RFQ exists. Found: adopted; ambiguous (or
 * undecidable for too long): parked. Undefined when proven absent (the attempt may post).
 */
async function reconcileByWalk(deps: CreatorDeps, a: Attempt, claimed: string[]): Promise<CreateOutcome | undefined> {
  const { id, r, log, token } = a;
  const rec = await deps.store.get(id);
  const entry: Omit<PendingEntry, 'since'> = {
    id,
    externalIds: claimed,
    posted: rec && rec.posted.length > 0 ? rec.posted : [a.posted],
    ...(rec?.firstPostAt !== undefined ? { firstPostAt: rec.firstPostAt } : {}),
    ...(rec?.postUntil !== undefined ? { postUntil: rec.postUntil } : {}),
    requisition: r,
  };
  // a ReconcileUnstableError (the lists must settle, or a walk is needed first) goes up: still `creating`, the job waits
  const result = await deps.reconciler.reconcile(entry);
  if (result.outcome === 'found') {
    const outcome = await adopt(deps, a, claimed, result, entry.posted);
    await deps.reconciler.settle(id);
    return outcome;
  }
  if (result.outcome === 'ambiguous') {
    if (await deps.store.park(id, token, result.reason))
      await deps.reconciler.park({ ...entry, since: result.walkStartedAt }, result);
    log.warn(
      { event: 'requisition.undecided', rfqIds: result.rfqIds, reason: result.reason },
      `requisition ${id} needs a decision: ${result.reason}; nothing posted. Run: rfq-sync resolve ${id} --rfq <id> | --post`,
    );
    return { requisitionId: id, status: 'undecided', reason: result.reason, rfqIds: result.rfqIds };
  }
  await deps.reconciler.settle(id);
  await deps.store.markReconciled(id, token);
  return undefined;
}

/**
 * Step 4 up to the POST: wait for a quiet list if a walk needs it, take a permit and begin the post unless the claim
 * did, and wait for the replicas. Answers when the post lease started (performance.now()); throws when this attempt
 * must not post now.
 */
async function readyToPost(deps: CreatorDeps, a: Attempt, leaseFrom: number | undefined): Promise<number> {
  const { id, token } = a;
  if (await deps.reconciler.gateClosed()) {
    // a walk needs the lists quiet to prove absence for lost answers: hold new POSTs a moment (nothing posted yet)
    await deps.store.endAttempt(id, token, 'pending'); // only back to pending when nothing can exist (see END_ATTEMPT)
    throw new AttemptBusyError(id, 500 + Math.random() * 1_000);
  }
  let from = leaseFrom;
  if (from === undefined) {
    // the claim could not take a permit too (none free, or a reconcile came first): take one now, before the
    // post lease starts (the POST below goes out on this permit)
    await deps.limiter.acquire();
    from = performance.now();
    if (!(await deps.store.beginPost(id, token, deps.postLeaseMs, a.posted))) {
      throw new AttemptBusyError(id, 1_000); // our lease ran out while waiting: another attempt has it now
    }
  }
  if (deps.replicated) {
    try {
      await deps.replicated(`requisition ${id}: claim`);
    } catch (err) {
      await deps.store.endAttempt(id, token, 'pending'); // nothing posted by this attempt
      throw err;
    }
  }
  return from;
}

/** Steps 4 to 6 from the POST: post, then record the RFQ (or end the attempt as the refusal or failure says). */
async function postAndRecord(deps: CreatorDeps, a: Attempt, leaseFrom: number): Promise<CreateOutcome> {
  const { id, r, log, token } = a;
  const body = toCreateRfqRequest(r);
  // what is left of the post lease (measured on this host's monotonic clock from before the lease began)
  const leaseLeft = deps.postLeaseMs - (performance.now() - leaseFrom) - LEASE_MARGIN_MS;
  if (leaseLeft < MIN_POST_MS) {
    // another attempt may take the requisition at any moment: a POST now could outlive the lease
    await deps.store.endAttempt(id, token, 'pending');
    log.warn(
      { event: 'requisition.lease-spent', leaseLeftMs: Math.round(leaseLeft) },
      `requisition ${id}: the lease ran out before the POST went out (the host or Redis paused?); nothing sent, trying again`,
    );
    throw new AttemptBusyError(id, 200);
  }
  let rfqId: number;
  try {
    // One permit per call: taken by the claim script or just above (the worker's clients take none for a create).
    rfqId = (
      await deps.client.createRfq(body, {
        deadlineMs: Math.floor(Math.min(deps.postDeadlineMs, leaseLeft)),
      })
    )._id;
  } catch (err) {
    if (err instanceof PermanentHttpError || (err instanceof RfqSyncError && err.kind === 'data')) {
      // The service (or our own check before sending) refused it: nothing was created.
      await deps.store.reject(r, token, err.message, a.contentHash);
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
  const answeredAt = Date.now();
  await deps.audit?.write(createAnswered(r, rfqId));
  // Tracking starts alongside the record (one round trip): a crash between the two leaves a tracked RFQ whose
  // requisition is still `creating`, which the next attempt adopts - never a second RFQ.
  const [rec] = await Promise.all([
    deps.store.record(
      r,
      rfqId,
      r.lines.map((line, position) => ({ line, position })),
      'posted',
      [],
    ),
    deps.track(rfqId, r),
  ]);
  if (rec.status === 'duplicate') {
    log.error(
      { event: 'requisition.duplicate', rfqId, existingRfqId: rec.existingRfqId },
      `requisition ${id}: RFQ ${rfqId} created although RFQ ${rec.existingRfqId} was recorded for it (an attempt outlived its lease)`,
    );
    await deps.track(rec.existingRfqId, r);
  } else {
    await deps.store.saveHeader(id, headerOf(body));
    log.info({ event: 'rfq.created', rfqId, lines: r.lines.length }, `requisition ${id}: RFQ ${rfqId} created`);
    deps.onPosted?.(rfqId, answeredAt);
  }
  return { requisitionId: id, status: 'created', rfqId };
}

/** Record the RFQ a walk found for this requisition, its lines as POSTED (adoption.ts). */
async function adopt(
  deps: CreatorDeps,
  a: Attempt,
  claimed: string[],
  found: Extract<ReconcileResult, { outcome: 'found' }>,
  posted: PostedBody[],
): Promise<CreateOutcome> {
  const { id, r, log } = a;
  const lines = adoptedLines(found, posted, r.lines);
  const inRfq = new Set(lines.map((x) => x.line.external_id));
  // claimed ids the RFQ does not hold go back to the table: a later line of this export becomes a supplement
  const release = claimed.filter((e) => !inRfq.has(e));
  const rec = await deps.store.record(r, found.rfq._id, lines, 'adopted', release);
  const rfqId = rec.status === 'duplicate' ? rec.existingRfqId : found.rfq._id;
  log.info(
    { event: 'rfq.adopted', rfqId, by: found.how },
    `requisition ${id}: found RFQ ${rfqId} (by ${found.how}) from an earlier attempt whose answer was lost; nothing posted`,
  );
  await deps.track(rfqId, r);
  return settleExisting(deps, r, rfqId, 'adopted', a.createOnce);
}

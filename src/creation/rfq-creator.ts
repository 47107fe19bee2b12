/**
 * Exactly one RFQ per requisition: the claim / reconcile / post / record sequence of
 * docs/architecture.md#the-protocol, on top of the
 * idempotency store. Job plumbing (BullMQ retries, delays) is the caller's (jobs/create-rfq.ts); this module only
 * says what happened, or throws what the caller must act on:
 *   - AttemptBusyError: another attempt holds the requisition (it may be posting): try again after waitMs;
 *   - ThrottledError: calls are held (rate limit, Retry-After): try again after waitMs;
 *   - AuthError, RateLimitError, TransientHttpError, Redis errors: as thrown by the client / ioredis.
 * A permanent refusal is not thrown: it is recorded (`rejected`) and returned.
 */
import { randomUUID } from 'node:crypto';
import {
  AttemptBusyError,
  AuthError,
  ClaimConflictError,
  PermanentHttpError,
  RateLimitError,
  RfqSyncError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Requisition, RequisitionLine } from '../requisition.ts';
import type { SourcingClient } from '../sourcing/client.ts';
import { hashOf, type ClaimResult, type IdempotencyStore, type LineChange } from './idempotency-store.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { PendingEntry, ReconcileCoordinator, ReconcileResult } from './reconcile-coordinator.ts';
import { postedFingerprint } from './fingerprint.ts';
import { headerOf, type HeaderOutcome, type HeaderPusher } from './header-push.ts';
import { settleHeader } from './settle-header.ts';
import { requisitionId } from '../redis/redis-keys.ts';
import { lineChanges } from './reexport-changes.ts';
import { toCreateRfqRequest } from './rfq-body.ts';

export { toCreateRfqRequest } from './rfq-body.ts';
export { RECONCILE_LIMITS, RECONCILE_ORDER, type ReconcileLimits } from './reconcile-walk.ts';
// in the catalogue (src/errors.ts); still exported here, where the create job imports them
export { AttemptBusyError, ReconcileUnstableError } from '../errors.ts';

export interface CreateOutcome {
  requisitionId: string;
  /**
   * created: posted now; adopted: found at the service after a lost answer; existing: created earlier;
   * undecided: after a lost answer the match is ambiguous: parked for a person (`rfq-sync resolve`).
   */
  status: 'created' | 'adopted' | 'existing' | 'rejected' | 'undecided';
  rfqId?: number;
  /** undecided: the RFQs that matched. */
  rfqIds?: number[];
  reason?: string;
  changes?: LineChange[];
  /** A re-export changed the title, dates or description: pushed with the edit call, or only reported. */
  header?: HeaderOutcome;
  supplements?: CreateOutcome[];
}

export interface CreatorDeps {
  store: IdempotencyStore;
  client: Pick<SourcingClient, 'createRfq'>;
  limiter: RateLimiter;
  logger: Logger;
  /** Lease held while posting: longer than the longest a POST can take (client time-outs) plus a margin. */
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
}

/** Hash of what would be posted: the same requisition in two files with the same content has the same hash. */
export function contentHashOf(r: Requisition): string {
  return hashOf(toCreateRfqRequest(r), 24);
}

export async function createRfqOnce(deps: CreatorDeps, r: Requisition): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const token = randomUUID();
  const contentHash = contentHashOf(r);
  const fingerprint = postedFingerprint(toCreateRfqRequest(r));
  const log = deps.logger.child({ requisition: id, sourceFile: r.sourceFile });
  const claim = await deps.store.claim(
    r,
    token,
    contentHash,
    deps.claimLeaseMs,
    { limiter: deps.limiter, postLeaseMs: deps.postLeaseMs },
    fingerprint,
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
      return settleExisting(deps, r, claim.rfqId, 'existing');
    case 'claimed':
      break;
  }

  try {
    return await afterClaim(deps, { id, r, log, token, contentHash, fingerprint }, claim);
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
  /** Fingerprint of the body it posts (fingerprint.ts). */
  fingerprint: string;
}

/** Steps 3 to 6 of the protocol: reconcile if an earlier attempt may have posted, else (or if absent) post and record. */
async function afterClaim(
  deps: CreatorDeps,
  a: Attempt,
  claim: Extract<ClaimResult, { status: 'claimed' }>,
): Promise<CreateOutcome> {
  if (claim.previous === 'creating') {
    const settled = await reconcileByWalk(deps, deps.reconciler, a, claim.claimed);
    if (settled) return settled;
  }
  await readyToPost(deps, a, claim.posting);
  return postAndRecord(deps, a);
}

/**
 * The requisition was `creating`: ask the coordinator's walk whether its RFQ exists. Found: adopted; ambiguous:
 * parked. Undefined when proven absent (the attempt may post).
 */
async function reconcileByWalk(
  deps: CreatorDeps,
  reconciler: ReconcileCoordinator,
  a: Attempt,
  claimed: string[],
): Promise<CreateOutcome | undefined> {
  const { id, r, log, token } = a;
  const rec = await deps.store.get(id);
  const entry: Omit<PendingEntry, 'since'> = {
    id,
    externalIds: claimed,
    fingerprints: rec && rec.postedFps.length > 0 ? rec.postedFps : [a.fingerprint],
    ...(rec?.firstPostAt !== undefined ? { firstPostAt: rec.firstPostAt } : {}),
    requisition: r,
  };
  // a ReconcileUnstableError (a walk is needed first) goes up: the requisition stays `creating`, the job waits
  const result = await reconciler.reconcile(entry);
  if (result.outcome === 'found') {
    const outcome = await adopt(deps, a, claimed, result);
    await reconciler.settle(id);
    return outcome;
  }
  if (result.outcome === 'ambiguous') {
    if (await deps.store.park(id, token, result.reason))
      await reconciler.park({ ...entry, since: result.walkStartedAt }, result.reason, result.rfqIds);
    log.warn(
      { event: 'requisition.undecided', rfqIds: result.rfqIds, reason: result.reason },
      `requisition ${id} needs a decision: ${result.reason}; nothing posted. Run: rfq-sync resolve ${id} --rfq <id> | --post`,
    );
    return { requisitionId: id, status: 'undecided', reason: result.reason, rfqIds: result.rfqIds };
  }
  await reconciler.settle(id);
  await deps.store.markReconciled(id, token);
  return undefined;
}

/**
 * Step 4 up to the POST: wait for a quiet list if a walk needs it, take a permit and begin the post unless the claim
 * did, and wait for the replicas. Throws when this attempt must not post now.
 */
async function readyToPost(deps: CreatorDeps, a: Attempt, posting: boolean): Promise<void> {
  const { id, token } = a;
  if (await deps.reconciler.gateClosed()) {
    // a walk needs the lists quiet to prove absence for lost answers: hold new POSTs a moment (nothing posted yet)
    await deps.store.endAttempt(id, token, 'pending'); // only back to pending when nothing can exist (see END_ATTEMPT)
    throw new AttemptBusyError(id, 500 + Math.random() * 1_000);
  }
  if (!posting) {
    // the claim could not take a permit too (none free, or a reconcile came first): take one now, before the
    // post lease starts (the POST below goes out on this permit)
    await deps.limiter.acquire();
    if (!(await deps.store.beginPost(id, token, deps.postLeaseMs, a.fingerprint))) {
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
}

/** Steps 4 to 6 from the POST: post, then record the RFQ (or end the attempt as the refusal or failure says). */
async function postAndRecord(deps: CreatorDeps, a: Attempt): Promise<CreateOutcome> {
  const { id, r, log, token } = a;
  const body = toCreateRfqRequest(r);
  let rfqId: number;
  try {
    // One permit per call: taken by the claim script or just above, so the client does not take another.
    rfqId = (await deps.client.createRfq(body, { permitHeld: true }))._id;
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
  if (rec.status !== 'duplicate') await deps.store.saveHeader(id, headerOf(body));
  if (rec.status === 'duplicate') {
    log.error(
      { event: 'requisition.duplicate', rfqId, existingRfqId: rec.existingRfqId },
      `requisition ${id}: RFQ ${rfqId} created although RFQ ${rec.existingRfqId} was recorded for it (an attempt outlived its lease)`,
    );
  } else {
    log.info({ event: 'rfq.created', rfqId, lines: r.lines.length }, `requisition ${id}: RFQ ${rfqId} created`);
  }
  if (rec.status === 'duplicate') await deps.track(rec.existingRfqId, r);
  return { requisitionId: id, status: 'created', rfqId };
}

/** Record the RFQ a walk found for this requisition (by its external_ids, or by the fingerprint of what was posted). */
async function adopt(
  deps: CreatorDeps,
  a: Attempt,
  claimed: string[],
  found: Extract<ReconcileResult, { outcome: 'found' }>,
): Promise<CreateOutcome> {
  const { id, r, log } = a;
  const rfq = found.rfq;
  const byExt = new Map(r.lines.map((l) => [l.external_id, l]));
  const lines: Array<{ line: RequisitionLine; position: number }> = [];
  rfq.lines.forEach((l, i) => {
    // by fingerprint the lines are the ones posted, in order; by external_id each line names its own
    const ours =
      found.how === 'fingerprint' ? r.lines[i] : l.external_id !== undefined ? byExt.get(l.external_id) : undefined;
    if (ours) lines.push({ line: ours, position: l.position });
  });
  const inRfq = new Set(lines.map((x) => x.line.external_id));
  const release = claimed.filter((e) => !inRfq.has(e));
  const rec = await deps.store.record(r, rfq._id, lines, 'adopted', release);
  const rfqId = rec.status === 'duplicate' ? rec.existingRfqId : rfq._id;
  log.info(
    { event: 'rfq.adopted', rfqId, by: found.how },
    `requisition ${id}: found RFQ ${rfqId} (by ${found.how}) from an earlier attempt whose answer was lost; nothing posted`,
  );
  await deps.track(rfqId, r);
  return settleExisting(deps, r, rfqId, 'adopted');
}

/**
 * The requisition already has its RFQ: compare the lines it arrives with now against the RFQ's. Changed lines are
 * reported (the service cannot update an RFQ); lines with new external_ids become a supplementary RFQ, itself a
 * requisition `${key}#supp-<hash of its external_ids>` going through the same protocol.
 */
async function settleExisting(
  deps: CreatorDeps,
  r: Requisition,
  rfqId: number,
  status: 'existing' | 'adopted',
): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const rec = await deps.store.get(id);
  const inRfq = rec?.lines ?? {};
  const changes: LineChange[] = lineChanges(inRfq, r.lines).map((c) => ({
    externalId: c.externalId,
    kind: 'changed' as const,
    fields: c.fields,
  }));
  const others: RequisitionLine[] = r.lines.filter((line) => !inRfq[line.external_id]);

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

  const header = await settleHeader(deps, r, rfqId, rec?.header);

  if (changes.length > 0) {
    await deps.store.saveChanges(id, changes);
    deps.logger.warn(
      { event: 'requisition.changed', requisition: id, rfqId, changes },
      `requisition ${id} was exported again with ${changes.length} changed line(s) after RFQ ${rfqId} was created; ` +
        'the service cannot update an RFQ: change it there by hand if needed',
    );
  }
  return {
    requisitionId: id,
    status,
    rfqId,
    ...(changes.length ? { changes } : {}),
    ...(header ? { header } : {}),
    ...(supplements.length ? { supplements } : {}),
  };
}

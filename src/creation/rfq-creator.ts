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
  ReconcileUnstableError,
  RfqSyncError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Requisition, RequisitionLine } from '../requisition.ts';
import type { SourcingClient } from '../sourcing/client.ts';
import type { ListedRfq } from '../sourcing/types.ts';
import { findRfqsWithExternalIds, type ReconcileLimits } from './reconcile-walk.ts';
import { hashOf, type IdempotencyStore, type LineChange } from './idempotency-store.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { PendingEntry, ReconcileCoordinator, ReconcileResult } from './reconcile-coordinator.ts';
import { postedFingerprint } from './fingerprint.ts';
import { headerChanges, headerOf, type HeaderOutcome, type HeaderPusher, type PostedHeader } from './header-push.ts';
import { requisitionId } from '../redis/redis-keys.ts';
import { lineChanges } from './reexport-changes.ts';
import { toCreateRfqRequest } from './rfq-body.ts';

export { toCreateRfqRequest } from './rfq-body.ts';
export {
  findRfqsWithExternalIds,
  RECONCILE_LIMITS,
  RECONCILE_ORDER,
  walkList,
  type ReconcileLimits,
} from './reconcile-walk.ts';
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
  /**
   * One walk for many lost answers, with fingerprint matching where lists do not echo external_id. Without it
   * (unit tests of the older path), each attempt searches the four lower-case lists itself.
   */
  reconciler?: ReconcileCoordinator;
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
    return await afterClaim(
      deps,
      log,
      r,
      claim.previous,
      claim.claimed,
      claim.posting,
      token,
      contentHash,
      fingerprint,
    );
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
  fingerprint: string,
): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const claim = { previous, claimed };
  if (claim.previous === 'creating' && deps.reconciler) {
    const rec = await deps.store.get(id);
    const entry: Omit<PendingEntry, 'since'> = {
      id,
      externalIds: claim.claimed,
      fingerprints: rec && rec.postedFps.length > 0 ? rec.postedFps : [fingerprint],
      ...(rec?.firstPostAt !== undefined ? { firstPostAt: rec.firstPostAt } : {}),
      requisition: r,
    };
    // a ReconcileUnstableError (a walk is needed first) goes up: the requisition stays `creating`, the job waits
    const result = await deps.reconciler.reconcile(entry);
    if (result.outcome === 'found') {
      const outcome = await adopt(deps, log, r, claim.claimed, result);
      await deps.reconciler.settle(id);
      return outcome;
    }
    if (result.outcome === 'ambiguous') {
      if (await deps.store.park(id, token, result.reason))
        await deps.reconciler.park({ ...entry, since: result.walkStartedAt }, result.reason, result.rfqIds);
      log.warn(
        { event: 'requisition.undecided', rfqIds: result.rfqIds, reason: result.reason },
        `requisition ${id} needs a decision: ${result.reason}; nothing posted. Run: rfq-sync resolve ${id} --rfq <id> | --post`,
      );
      return { requisitionId: id, status: 'undecided', reason: result.reason, rfqIds: result.rfqIds };
    }
    await deps.reconciler.settle(id);
    await deps.store.markReconciled(id, token);
  } else if (claim.previous === 'creating') {
    // An earlier attempt may have posted and lost the answer: look before posting again.
    let found: Awaited<ReturnType<typeof findRfqsWithExternalIds>>;
    try {
      found = await findRfqsWithExternalIds(deps, claim.claimed);
    } catch (err) {
      if (err instanceof ReconcileUnstableError) {
        log.info(
          { event: 'reconcile.inconclusive', reason: err.reason, waitMs: err.waitMs },
          `requisition ${id}: ${err.message}`,
        );
      }
      throw err; // still `creating`: the next attempt searches again
    }
    const first = found[0];
    if (first) {
      if (found.length > 1) {
        log.error(
          { event: 'requisition.duplicates', rfqIds: found.map((f) => f.rfq._id) },
          `requisition ${id} has ${found.length} RFQs at the service; adopting the first`,
        );
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
      const rec = await deps.store.record(
        r,
        first.rfq._id,
        lines.filter((x) => x.line.external_id !== ''),
        'adopted',
        release,
      );
      const rfqId = rec.status === 'duplicate' ? rec.existingRfqId : first.rfq._id;
      log.info(
        { event: 'rfq.adopted', rfqId, listedAs: first.status },
        `requisition ${id}: found RFQ ${rfqId} from an earlier attempt whose answer was lost; nothing posted`,
      );
      await deps.track(rfqId, r);
      return settleExisting(deps, r, rfqId, 'adopted');
    }
    await deps.store.markReconciled(id, token);
  }

  if (deps.reconciler && (await deps.reconciler.gateClosed())) {
    // a walk needs the lists quiet to prove absence for lost answers: hold new POSTs a moment (nothing posted yet)
    await deps.store.endAttempt(id, token, 'pending'); // only back to pending when nothing can exist (see END_ATTEMPT)
    throw new AttemptBusyError(id, 500 + Math.random() * 1_000);
  }
  if (!posting) {
    // the claim could not take a permit too (none free, or a reconcile came first): take one now, before the
    // post lease starts (the POST below goes out on this permit)
    await deps.limiter.acquire();
    if (!(await deps.store.beginPost(id, token, deps.postLeaseMs, fingerprint))) {
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
  const body = toCreateRfqRequest(r);
  let rfqId: number;
  try {
    // One permit per call: taken by the claim script or just above, so the client does not take another.
    rfqId = (await deps.client.createRfq(body, { permitHeld: true }))._id;
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
  log: Logger,
  r: Requisition,
  claimed: string[],
  found: Extract<ReconcileResult, { outcome: 'found' }>,
): Promise<CreateOutcome> {
  const id = requisitionId(r);
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

/**
 * The re-export's title, dates and description against the RFQ's as posted (or last pushed): pushed with the edit
 * call when a pusher is configured, reported otherwise. A record from before headers were kept takes this
 * export's header as its baseline (nothing to compare against).
 */
async function settleHeader(
  deps: CreatorDeps,
  r: Requisition,
  rfqId: number,
  was: PostedHeader | undefined,
): Promise<HeaderOutcome | undefined> {
  const id = requisitionId(r);
  const now = headerOf(toCreateRfqRequest(r));
  if (!was) {
    await deps.store.saveHeader(id, now);
    return undefined;
  }
  const changes = headerChanges(was, now);
  if (changes.length === 0) return undefined;
  const outcome: HeaderOutcome = deps.headerPusher
    ? await deps.headerPusher.push(rfqId, changes)
    : { changes, pushed: false, reason: 'PUSH_HEADER_CHANGES is off: change it at the service by hand if needed' };
  if (outcome.pushed) await deps.store.saveHeader(id, now);
  await deps.store.saveHeaderChanges(id, outcome);
  const fields = changes.map((c) => c.field).join(', ');
  if (outcome.pushed)
    deps.logger.info(
      { event: 'rfq.header-pushed', requisition: id, rfqId, changes },
      `requisition ${id}: ${fields} of RFQ ${rfqId} updated from the re-export${outcome.reason ? ` (${outcome.reason})` : ''}`,
    );
  else
    deps.logger.warn(
      { event: 'requisition.header-changed', requisition: id, rfqId, changes },
      `requisition ${id} was exported again with a changed ${fields} after RFQ ${rfqId} was created; not pushed: ${outcome.reason}`,
    );
  return outcome;
}

/**
 * The reconcile's decisions, as pure functions of what a walk read (docs/architecture.md#reconcile-after-a-lost-answer):
 * reconcile-coordinator.ts gathers the inputs (the walk, the records, the detail call) and acts on the results.
 * Every rule fails closed: what cannot be told apart is AMBIGUOUS (the requisition is parked for a person), never
 * "absent" (which would post again) and never adopted.
 *
 *   - By external_id (any walk, complete or not): an RFQ carrying the external_ids (compared as services rewrite
 *     them: trimmed, any case) of exactly one pending requisition is its RFQ. Two RFQs carrying one requisition's
 *     ids, or one RFQ carrying two requisitions' ids: ambiguous.
 *   - By the body posted (complete walks only, for a requisition whose lists have settled): candidates are RFQs
 *     without external_ids, not recorded for any requisition, with the title of a body it posted
 *     (fingerprint.ts: exact or near).
 *       one exact candidate, which no other known requisition's body also matches, made no earlier than our first
 *       POST (less CLOCK_SKEW_MS), and no near one beside it: found;
 *       none at all: absent;
 *       anything else: ambiguous (two exact; an exact one another requisition also posted, registered or not; one
 *       made before our first POST; a near one - same title and line count, other content - made since our
 *       first POST and not exactly another requisition's).
 */
import type { Requisition } from '../core/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';
import { bestMatch, matchListed, normExternalId, normText, type Match } from './fingerprint.ts';
import type { PostedBody } from '../requisitions/index.ts';

/** An RFQ made this long before our first POST (service clock against Redis's) cannot be ours. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export interface PendingEntry {
  id: string;
  externalIds: string[];
  /** Every body posted for it. */
  posted: PostedBody[];
  /** Redis ms when it registered (after its last POST ended). */
  since: number;
  firstPostAt?: number;
  /** Redis ms when the lease of its last POST ended (that POST ended before); absent for a recovery seed. */
  postUntil?: number;
  /** Kept for `resolve` once parked. */
  requisition: Requisition;
}

export type ReconcileResult =
  | {
      walkStartedAt: number;
      outcome: 'found';
      rfq: ListedRfq;
      how: 'external_id' | 'fingerprint';
      /** By fingerprint: the body the RFQ is (its lines are that body's, in order). */
      body?: PostedBody;
    }
  | { walkStartedAt: number; outcome: 'absent' }
  | {
      walkStartedAt: number;
      outcome: 'ambiguous';
      reason: string;
      rfqIds: number[];
      /** Candidate RFQ -> fingerprint of the body it matches (for `resolve --rfq`). */
      bodies?: Record<number, string>;
    };

/** An RFQ a pending requisition might own, by the body it posted. */
export interface Candidate {
  rfq: ListedRfq;
  match: Exclude<Match, 'none'>;
  body: PostedBody;
  /** Other known requisitions (pending or not) whose posted body this RFQ matches exactly. */
  claimants: string[];
}

/** Other requisitions' posted bodies by claimant index key (fingerprint.ts nearKeyOf), prefetched. */
export type KnownBodies = (near: string) => ReadonlyArray<{ id: string; posted: readonly PostedBody[] }>;

/**
 * Results by external_id: pending requisition id -> result, for the RFQs read that carry the external_ids of a
 * pending requisition.
 */
export function decideByExternalId(
  walkStartedAt: number,
  pendings: readonly PendingEntry[],
  withExt: Iterable<ListedRfq>,
): Map<string, ReconcileResult> {
  const owner = new Map<string, string>();
  for (const p of pendings) for (const e of p.externalIds) owner.set(normExternalId(e), p.id);
  const rfqsOf = new Map<string, ListedRfq[]>();
  const clash = new Map<string, ListedRfq>();
  for (const rfq of withExt) {
    const ids = new Set<string>();
    for (const l of rfq.lines) {
      const o = l.external_id !== undefined ? owner.get(normExternalId(l.external_id)) : undefined;
      if (o !== undefined) ids.add(o);
    }
    for (const id of ids) rfqsOf.set(id, [...(rfqsOf.get(id) ?? []), rfq]);
    if (ids.size > 1) for (const id of ids) clash.set(id, rfq);
  }
  const out = new Map<string, ReconcileResult>();
  for (const [id, rfqs] of rfqsOf) {
    const ids = rfqs.map((r) => r._id);
    const c = clash.get(id);
    if (c)
      out.set(id, {
        walkStartedAt,
        outcome: 'ambiguous',
        reason: `RFQ ${c._id} carries the external_ids of more than one requisition`,
        rfqIds: ids,
      });
    else if (rfqs.length > 1)
      out.set(id, {
        walkStartedAt,
        outcome: 'ambiguous',
        reason: `${rfqs.length} RFQs carry its external_ids: ${ids.join(', ')}`,
        rfqIds: ids,
      });
    else out.set(id, { walkStartedAt, outcome: 'found', rfq: rfqs[0]!, how: 'external_id' });
  }
  return out;
}

/** RFQs that may be found by the body posted, by normalised title (no external_ids, not recorded for anything). */
export function byTitle(rfqs: Iterable<ListedRfq>): Map<string, ListedRfq[]> {
  const m = new Map<string, ListedRfq[]>();
  for (const r of rfqs) {
    if (r.title === undefined) continue;
    const t = normText(r.title);
    m.set(t, [...(m.get(t) ?? []), r]);
  }
  return m;
}

/** A pending requisition's candidates among `titled` (byTitle), with the other requisitions each one matches. */
export function candidatesOf(p: PendingEntry, titled: Map<string, ListedRfq[]>, known: KnownBodies): Candidate[] {
  const seen = new Map<number, Candidate>();
  for (const title of new Set(p.posted.map((b) => normText(b.title)))) {
    for (const rfq of titled.get(title) ?? []) {
      if (seen.has(rfq._id)) continue;
      const best = bestMatch(rfq, p.posted);
      if (best.match === 'none' || !best.body) continue;
      const near = best.body.near;
      const claimants = known(near)
        .filter((k) => k.id !== p.id && k.posted.some((b) => matchListed(rfq, b) === 'exact'))
        .map((k) => k.id);
      seen.set(rfq._id, { rfq, match: best.match, body: best.body, claimants });
    }
  }
  return [...seen.values()];
}

/** One pending requisition's result from its candidates, after a complete walk of settled lists. */
export function decideByBody(
  walkStartedAt: number,
  p: PendingEntry,
  candidates: readonly Candidate[],
): ReconcileResult {
  const inWindow = (c: Candidate) =>
    p.firstPostAt === undefined || c.rfq.rfq_date === undefined || c.rfq.rfq_date >= p.firstPostAt - CLOCK_SKEW_MS;
  const exact = candidates.filter((c) => c.match === 'exact');
  // a near one that is exactly another requisition's body is that one's; one made before our first POST is not ours
  const near = candidates.filter((c) => c.match === 'near' && inWindow(c) && c.claimants.length === 0);
  const ambiguous = (reason: string, cs: readonly Candidate[]): ReconcileResult => ({
    walkStartedAt,
    outcome: 'ambiguous',
    reason,
    rfqIds: cs.map((c) => c.rfq._id),
    bodies: Object.fromEntries(cs.map((c) => [c.rfq._id, c.body.fp])),
  });
  const ids = (cs: readonly Candidate[]) => cs.map((c) => c.rfq._id).join(', ');
  const nearWhy = (cs: readonly Candidate[]) =>
    `RFQ ${ids(cs)} looks like what was posted (same title and ${cs[0]!.rfq.lines.length > 0 ? 'line count' : 'lines not listed'}) but does not match it: it may be ours, rewritten by the service`;
  if (exact.length > 1) return ambiguous(`${exact.length} RFQs match what was posted: ${ids(exact)}`, exact);
  const only = exact[0];
  if (only) {
    if (only.claimants.length > 0)
      return ambiguous(
        `RFQ ${only.rfq._id} matches what was posted for ${[p.id, ...only.claimants].join(', ')}`,
        exact,
      );
    if (!inWindow(only))
      return ambiguous(`RFQ ${only.rfq._id} matches what was posted but was made before our first POST (by hand?)`, [
        only,
      ]);
    if (near.length > 0)
      return ambiguous(`RFQ ${only.rfq._id} matches what was posted, and ${nearWhy(near)}`, [only, ...near]);
    return { walkStartedAt, outcome: 'found', rfq: only.rfq, how: 'fingerprint', body: only.body };
  }
  if (near.length > 0) return ambiguous(nearWhy(near), near);
  return { walkStartedAt, outcome: 'absent' };
}

/** After `walks` walks that could decide it but were incomplete: parked, with the last walk's reason. */
export function tooManyIncomplete(walkStartedAt: number, walks: number, reason: string): ReconcileResult {
  return {
    walkStartedAt,
    outcome: 'ambiguous',
    reason: `${walks} walks of the RFQ lists could not prove them complete (last: ${reason}); nothing posted`,
    rfqIds: [],
  };
}

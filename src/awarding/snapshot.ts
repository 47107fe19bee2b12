/**
 * The quotation snapshot a comparison is written from.
 *
 * Choice: the quotations job stores what it pulled in Redis (`trk:snap:<id>`, JSON) when it holds at most
 * SNAPSHOT_MAX_BYTES; a larger one is not stored (Redis is our only state store and runs with noeviction, so one
 * 60-supplier x 1,000-line RFQ must not take hundreds of MB of it): the snapshot then holds only a `refetch` marker
 * and the comparison job pulls the quotations again. Either way the comparison records the revisions of exactly
 * what it wrote. Every snapshot carries a sequence number (INCR per RFQ), so a comparison job can tell that a newer
 * pull landed while it wrote, and ask for the next version.
 * Documents are kept as their count only: the workbook shows how many, never their content.
 */
import type { SourcingClient } from '../sourcing/client/index.ts';
import type { Quotation, QuotationList } from '../sourcing/index.ts';
import type { TrackingStore } from '../rfqs/index.ts';

export const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024;

export interface QuotationPull {
  quotations: Quotation[];
  invalid: QuotationList['invalid'];
  /** The `status=success` quotation's key, when the award was asked for and the service named one. */
  winnerKey?: string;
  /** True when pulled for the award (the RFQ is completed). */
  award: boolean;
  /** Unix ms. */
  pulledAt: number;
}

export interface Snapshot extends Omit<QuotationPull, 'quotations' | 'invalid'> {
  rfqId: number;
  seq: number;
  /** Absent when the pull was too large to store: the comparison job pulls again. */
  quotations?: Quotation[];
  invalid?: QuotationList['invalid'];
  refetch?: true;
  /** revision_no per quotation_key of the pull (kept even when the quotations are not). */
  revisions: Record<string, number>;
}

/**
 * Pull every quotation of an RFQ, plus the winner (`status=success`) when `award`. Each call takes its permit of
 * the shared rate limit in the client (WorkerContext.limiter).
 */
export async function pullQuotations(
  client: Pick<SourcingClient, 'listQuotations'>,
  rfqId: number,
  award: boolean,
): Promise<QuotationPull> {
  const list = await client.listQuotations(rfqId);
  let winnerKey: string | undefined;
  if (award) {
    const won = await client.listQuotations(rfqId, { status: 'success', fields: ['sup_name', 'revision_no'] });
    winnerKey = won.quotations[0]?.quotation_key;
  }
  return {
    quotations: list.quotations.map(compactQuotation),
    invalid: list.invalid,
    winnerKey,
    award,
    pulledAt: Date.now(),
  };
}

function compactQuotation(q: Quotation): Quotation {
  return {
    ...q,
    detail: q.detail.map((d) => ({ ...d, docs: d.docs.map(() => null) })),
    attachments: q.attachments.map(() => null),
  };
}

export async function storeSnapshot(
  store: TrackingStore,
  rfqId: number,
  pull: QuotationPull,
  revisions: Record<string, number>,
  maxBytes = SNAPSHOT_MAX_BYTES,
): Promise<Snapshot> {
  const seq = await store.redis.incr(store.k.snapshotSeq(rfqId));
  const full: Snapshot = { rfqId, seq, ...pull, revisions };
  let json = JSON.stringify(full);
  let snap = full;
  if (Buffer.byteLength(json) > maxBytes) {
    const { quotations: _q, invalid: _i, ...rest } = full;
    snap = { ...rest, refetch: true };
    json = JSON.stringify(snap);
  }
  await store.redis.set(store.k.snapshot(rfqId), json);
  return snap;
}

export async function loadSnapshot(store: TrackingStore, rfqId: number): Promise<Snapshot | undefined> {
  const json = await store.redis.get(store.k.snapshot(rfqId));
  return json ? (JSON.parse(json) as Snapshot) : undefined;
}

export async function latestSnapshotSeq(store: TrackingStore, rfqId: number): Promise<number> {
  return Number((await store.redis.get(store.k.snapshotSeq(rfqId))) ?? 0);
}

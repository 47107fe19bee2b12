/**
 * The requisition record: what creation recorded of one requisition (its state, its RFQ, its lines and their
 * positions as posted, the bodies posted, the header and a re-export's changes). Its layout in Redis and the protocol
 * that writes it: src/creation/idempotency-store.ts.
 */
import type { RequisitionLine } from '../core/index.ts';
import type { HeaderOutcome, PostedHeader } from './header.ts';

export type RequisitionState = 'pending' | 'creating' | 'created' | 'rejected' | 'undecided';

/** Product, specification, uom, qty, estimated_price: what "the line changed" means for a re-export. */
export type LineFingerprint = [string, string, string, number, number | null];

export function lineFingerprint(l: RequisitionLine): LineFingerprint {
  return [l.product_name, l.specification ?? '', l.uom ?? '', l.qty, l.estimated_price ?? null];
}

export interface RequisitionRecord {
  id: string;
  state: RequisitionState;
  key?: string;
  profile?: string;
  sourceFile?: string;
  title?: string;
  rfqId?: number;
  createdAt?: number;
  how?: 'posted' | 'adopted';
  positions: Record<string, number>;
  lines: Record<string, LineFingerprint>;
  claimed: string[];
  attempts: number;
  reason?: string;
  changes?: LineChange[];
  supplements: string[];
  /** Every body posted for it (src/creation/fingerprint.ts fingerprints them). */
  posted: PostedBody[];
  /** Redis ms of its first POST. */
  firstPostAt?: number;
  /** Redis ms when the lease of its last POST ended (that POST ended before). */
  postUntil?: number;
  /** The RFQ's header as posted (or last pushed); absent on records made before headers were kept. */
  header?: PostedHeader;
  /** The last re-export's header changes. */
  headerChanges?: HeaderOutcome;
}

export interface LineChange {
  externalId: string;
  /** `changed`: a line of the RFQ differs in the re-export; `conflict`: a new line's external_id is held elsewhere. */
  kind: 'changed' | 'conflict';
  fields?: Array<{ field: string; was: string | number | null; now: string | number | null }>;
  heldBy?: string;
}

export type PostedLine = Pick<
  RequisitionLine,
  'external_id' | 'product_name' | 'specification' | 'uom' | 'qty' | 'estimated_price'
>;

/** A body as posted (the fields a list can show), with its fingerprint and its index key. */
export interface PostedBody {
  /** Hash of the body's normalised matching fields: one per distinct body. */
  fp: string;
  /** Hash of the normalised title and line count: the claimant index (keys.key('posted', near)). */
  near: string;
  title: string;
  due_date: string;
  required_date?: string;
  description?: string;
  rfq_type: string;
  rfq_category?: string;
  rfq_location?: string;
  lines: PostedLine[];
}

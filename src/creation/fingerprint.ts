/**
 * The fingerprint of an RFQ: what was posted (title, due and required dates, and per line in order: product, qty,
 * estimated price, uom), hashed. Where the lists do not echo external_id, the reconcile matches an RFQ to the
 * requisition whose posted fingerprint it carries. Both sides are brought to one spelling first: the lists give
 * numbers as strings, dates as numbers, empty strings for absent texts.
 */
import { Decimal } from 'decimal.js';
import type { CreateRfqRequest, ListedRfq } from '../sourcing/types.ts';
import { hashOf } from './idempotency-store.ts';

type Canon = [string, string, string, Array<[string, string, string, string]>];

const text = (v: string | undefined | null) => (v ?? '').trim();
const num = (v: string | number | undefined | null) =>
  v === undefined || v === null || v === '' ? '' : new Decimal(v).toString();

function hashCanon(c: Canon): string {
  return hashOf(c, 24);
}

/** Fingerprint of a create request (recorded at claim time, before the POST). */
export function postedFingerprint(b: CreateRfqRequest): string {
  return hashCanon([
    text(b.title),
    num(b.due_date),
    num(b.required_date),
    b.lines.map((l) => [text(l.product_name), num(l.qty), num(l.estimated_price), text(l.uom)]),
  ]);
}

/** The listed fields a fingerprint is made of: one of them left out unread leaves the RFQ without a fingerprint. */
const FINGERPRINT_FIELD = /^(title|due_date|required_date|lines\.\d+\.(product_name|qty|estimated_price|uom))$/;

/** Fingerprint of an RFQ as a list shows it (undefined when a field it needs is unreadable). */
export function listedFingerprint(r: ListedRfq): string | undefined {
  if (r.unreadable?.some((u) => FINGERPRINT_FIELD.test(u.field))) return undefined;
  try {
    return hashCanon([
      text(r.title),
      num(r.due_date),
      num(r.required_date),
      r.lines.map((l) => [text(l.product_name), num(l.qty), num(l.estimated_price), text(l.uom)]),
    ]);
  } catch {
    return undefined;
  }
}

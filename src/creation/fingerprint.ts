/**
 * What was posted, and whether a listed RFQ is it (docs/architecture.md#reconcile-after-a-lost-answer). Where the
 * lists do not echo external_id, the reconcile matches an RFQ to the requisition by the body it posted, kept with
 * the record (PostedBody: the matching fields and each line's external_id in the order posted, so an adopted RFQ's
 * positions come from what was posted, never from a later export).
 *
 * Matching fails closed. Both sides are compared as services store them: text with its case and runs of spaces
 * folded (units included), numbers as decimals, dates as ms. A listed field the list leaves out is not evidence
 * either way; a field we did not post may be filled in by the service (a required date, a category).
 *   exact - the title and every line are shown and every field shown agrees with the body;
 *   near  - the same title and line count (or lines not shown), but not exact: it may be ours, rewritten in a way
 *           we do not know, so it is never taken for absent;
 *   none  - another title, or another number of lines.
 */
import { Decimal } from 'decimal.js';
import { foldText } from '../core/index.ts';
import type { CreateRfqRequest, ListedRfq } from '../sourcing/index.ts';
import type { PostedBody, PostedLine } from '../requisitions/index.ts';
import { hashOf } from './hash.ts';

export type Match = 'exact' | 'near' | 'none';

/** Text as services store it (src/core/fold-text.ts). */
export const normText = foldText;

/** An external_id as a service may echo it (trimmed, upper-cased): compared in this form. */
export const normExternalId = normText;

function normNum(v: string | number | undefined | null): string {
  if (v === undefined || v === null || v === '') return '';
  try {
    return new Decimal(v).toString();
  } catch {
    return `?${String(v)}`;
  }
}

/** The claimant index key of a title and a line count. */
export function nearKeyOf(title: string | undefined, lineCount: number): string {
  return hashOf([normText(title), lineCount], 16);
}

export function postedBodyOf(b: CreateRfqRequest): PostedBody {
  // fields left undefined are not kept (JSON drops them)
  const lines: PostedLine[] = b.lines.map((l) => ({
    external_id: l.external_id,
    product_name: l.product_name,
    specification: l.specification,
    uom: l.uom,
    qty: l.qty,
    estimated_price: l.estimated_price,
  }));
  const canon = [
    normText(b.title),
    normNum(b.due_date),
    normNum(b.required_date),
    normText(b.description),
    normText(b.rfq_type),
    normText(b.rfq_category),
    normText(b.rfq_location),
    lines.map((l) => [
      normText(l.product_name),
      normText(l.specification),
      normText(l.uom),
      normNum(l.qty),
      normNum(l.estimated_price),
    ]),
  ];
  const { title, due_date, required_date, description, rfq_type, rfq_category, rfq_location } = b;
  return {
    fp: hashOf(canon, 24),
    near: nearKeyOf(title, lines.length),
    title,
    due_date,
    required_date,
    description,
    rfq_type,
    rfq_category,
    rfq_location,
    lines,
  };
}

/** A text field: agrees when the list leaves it out, when we did not post it, or when both fold to the same. */
const textAgrees = (listed: string | undefined, posted: string | undefined) =>
  listed === undefined || posted === undefined || normText(listed) === normText(posted);
const numAgrees = (listed: string | number | undefined, posted: string | number | undefined) =>
  listed === undefined || posted === undefined || normNum(listed) === normNum(posted);

/** How `listed` (an RFQ as a list or the detail call shows it) stands to one body we posted. */
export function matchListed(listed: ListedRfq, posted: PostedBody): Match {
  if (listed.title === undefined || normText(listed.title) !== normText(posted.title)) return 'none';
  // a list that leaves the lines out shows an empty array: nothing to compare, so at best near
  const linesShown = listed.lines.length > 0;
  if (linesShown && listed.lines.length !== posted.lines.length) return 'none';
  if (!linesShown) return 'near';
  const header =
    numAgrees(listed.due_date, posted.due_date) &&
    (posted.required_date === undefined || numAgrees(listed.required_date, posted.required_date)) &&
    textAgrees(listed.rfq_type, posted.rfq_type) &&
    textAgrees(listed.rfq_category, posted.rfq_category) &&
    textAgrees(listed.rfq_location, posted.rfq_location) &&
    (posted.description === undefined || textAgrees(listed.description, posted.description));
  const lines = listed.lines.every((l, i) => {
    const p = posted.lines[i]!;
    return (
      l.product_name !== undefined &&
      normText(l.product_name) === normText(p.product_name) &&
      l.qty !== undefined &&
      normNum(l.qty) === normNum(p.qty) &&
      textAgrees(l.uom, p.uom) &&
      numAgrees(l.estimated_price, p.estimated_price) &&
      textAgrees(l.specification, p.specification)
    );
  });
  return header && lines ? 'exact' : 'near';
}

/** The best match of `listed` among several bodies, and the body (exact first). */
export function bestMatch(listed: ListedRfq, bodies: readonly PostedBody[]): { match: Match; body?: PostedBody } {
  let near: PostedBody | undefined;
  for (const b of bodies) {
    const m = matchListed(listed, b);
    if (m === 'exact') return { match: 'exact', body: b };
    if (m === 'near') near ??= b;
  }
  return near ? { match: 'near', body: near } : { match: 'none' };
}

/**
 * The ERP's external_id of each line of a listed RFQ, for the workbook and the award file: the one the service
 * echoes on the line, else the one posted at the line's position (the service keeps the order lines were posted in;
 * docs/architecture.md#where-the-interface-is-silent). A position only names a line while the RFQ still holds what
 * was posted: when the lines that need it differ from what was posted (their count, or the product or quantity at a
 * position), no id is taken from positions and the reason is returned, so no award line can be mislabelled.
 * Pure: no Redis, no HTTP.
 */
import { foldText } from '../core/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';

/** What was posted at one position of the RFQ (from the requisition's record). */
export interface PostedLine {
  externalId: string;
  product: string;
  qty?: number;
}

export interface ErpIdResolution {
  /** The RFQ with `external_id` set on every line whose id is known. */
  rfq: ListedRfq;
  echoed: number;
  byPosition: number;
  /** Why the ids by position are not taken (the award file is withheld). */
  problem?: string;
}

/** `posted`: by position (holes for positions not ours); undefined when nothing is recorded for this RFQ. */
export function resolveErpIds(
  rfq: ListedRfq,
  posted: ReadonlyArray<PostedLine | undefined> | undefined,
): ErpIdResolution {
  const missing = rfq.lines.filter((l) => !l.external_id);
  const echoed = rfq.lines.length - missing.length;
  if (missing.length === 0) return { rfq, echoed, byPosition: 0 };
  const problem = positionProblem(rfq, posted);
  if (problem) return { rfq, echoed, byPosition: 0, problem };
  const lines = rfq.lines.map((l) => (l.external_id ? l : { ...l, external_id: posted![l.position]!.externalId }));
  return { rfq: { ...rfq, lines }, echoed, byPosition: missing.length };
}

/** Why the positions of `rfq` cannot name its lines, or undefined when each holds what was posted there. */
function positionProblem(
  rfq: ListedRfq,
  posted: ReadonlyArray<PostedLine | undefined> | undefined,
): string | undefined {
  const n = rfq.lines.length;
  if (!posted)
    return `the service does not show external_id on its lines and rfq-sync has no record of what was posted for RFQ ${rfq._id}`;
  const count = posted.filter(Boolean).length;
  if (count !== n) return `RFQ ${rfq._id} lists ${n} line(s), ${count} were posted`;
  for (const l of rfq.lines) {
    const p = posted[l.position];
    const at = `line ${l.position + 1} (line_id ${l.line_id})`;
    if (!p) return `${at} is at a position where nothing of ours was posted`;
    // compared as services store names (case, runs of spaces), as the reconcile compares them
    if (foldText(l.product_name) !== foldText(p.product))
      return `${at} is "${l.product_name ?? ''}" at the service, "${p.product}" was posted there`;
    if (l.qty !== undefined && p.qty !== undefined && l.qty !== p.qty)
      return `${at} has qty ${l.qty} at the service, ${p.qty} was posted there`;
  }
  return undefined;
}

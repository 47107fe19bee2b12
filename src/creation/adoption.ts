/**
 * The lines of an RFQ found after a lost answer, as the record keeps them (external_id -> position, and each line's
 * fields as the RFQ holds them). Taken from what was POSTED, never from the export that happens to reconcile: a
 * re-export racing a lost answer ([c,a,b] after [a,b] was posted) must not credit the RFQ's lines to c and a.
 *   - found by the body posted: the RFQ's line i is that body's line i;
 *   - found by external_id: each listed line names its own (compared as the service may rewrite it), its fields from
 *     the body that posted it.
 * Pure (no Redis, no HTTP).
 */
import type { RequisitionLine } from '../core/index.ts';
import { normExternalId } from './fingerprint.ts';
import type { PostedBody, PostedLine } from '../requisitions/index.ts';
import type { ReconcileResult } from './reconcile-decision.ts';

export interface AdoptedLine {
  line: RequisitionLine;
  position: number;
}

/** A posted line as the record keeps a line (its row in an export is not known here). */
const asLine = (l: PostedLine): RequisitionLine => ({ ...l, row: 0 });

/**
 * The RFQ's lines that are ours, with their positions. `posted`: every body posted for the requisition, latest last;
 * `current`: the lines of the export reconciling now (for an external_id no posted body holds, e.g. a recovery seed).
 */
export function adoptedLines(
  found: Extract<ReconcileResult, { outcome: 'found' }>,
  posted: readonly PostedBody[],
  current: readonly RequisitionLine[],
): AdoptedLine[] {
  const listed = found.rfq.lines;
  if (found.how === 'fingerprint') {
    const body = found.body ?? posted[posted.length - 1];
    if (!body) return [];
    return body.lines.map((l, i) => ({ line: asLine(l), position: listed[i]?.position ?? i }));
  }
  const byExt = new Map<string, RequisitionLine>();
  for (const l of current) byExt.set(normExternalId(l.external_id), l);
  for (const b of posted) for (const l of b.lines) byExt.set(normExternalId(l.external_id), asLine(l));
  const out: AdoptedLine[] = [];
  for (const l of listed) {
    const ours = l.external_id !== undefined ? byExt.get(normExternalId(l.external_id)) : undefined;
    if (ours && !out.some((o) => o.line.external_id === ours.external_id))
      out.push({ line: ours, position: l.position });
  }
  return out;
}

/**
 * Requisitions as ERP exports hold them (units in mixed case, names with double spaces, specifications, a required
 * date on some), and the exactly-once check for services that rewrite external_ids as they store them.
 */
import type { Requisition } from '../../src/core/requisition.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';

const UNITS = ['Pkg', 'Box', 'pcs', 'Roll'];

/** `n` requisitions with 1-3 lines; external_ids `${tag}-<n>-<line>` (lower case) are unique. */
export function realisticRequisitions(n: number, tag: string): Requisition[] {
  const due = Date.UTC(2031, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    key: `PR-${tag}-${i}`,
    sourceFile: `${tag}.csv`,
    profile: 'generic',
    title: `Requisition  ${tag}  ${i}`,
    due_date: due + (i % 7) * 86_400_000,
    ...(i % 2 === 0 ? { required_date: due + 30 * 86_400_000 } : {}),
    rfq_type: 'Public' as const,
    lines: Array.from({ length: 1 + (i % 3) }, (_, j) => ({
      external_id: `${tag}-${i}-${j}`,
      product_name: `Copy paper  A${j + 3}  ${i}`,
      specification: `80 g/m2, ${j + 1}`,
      uom: UNITS[(i + j) % UNITS.length]!,
      qty: 1 + j,
      estimated_price: 100 * (j + 1),
      row: 2 + j,
    })),
  }));
}

const norm = (e: string) => e.trim().toLowerCase();

/**
 * Every external_id of these requisitions in exactly one RFQ at the sandbox (compared as the service may have
 * rewritten it: trimmed, any case), and how many RFQs carry them.
 */
export function exactlyOnceBy(
  rfqs: StoredRfq[],
  reqs: Requisition[],
): { duplicates: string[]; missing: string[]; rfqCount: number } {
  const wanted = new Set(reqs.flatMap((r) => r.lines.map((l) => norm(l.external_id))));
  const seen = new Map<string, number>();
  let rfqCount = 0;
  for (const r of rfqs) {
    const ours = r.lines.filter((l) => l.external_id !== undefined && wanted.has(norm(l.external_id)));
    if (ours.length === 0) continue;
    rfqCount++;
    for (const l of ours) seen.set(norm(l.external_id!), (seen.get(norm(l.external_id!)) ?? 0) + 1);
  }
  return {
    duplicates: [...seen].filter(([, k]) => k > 1).map(([e]) => e),
    missing: [...wanted].filter((e) => !seen.has(e)),
    rfqCount,
  };
}

/** Inputs as an ERP exports them: requisitions (`makeRequisitions`) and CSVs in the generic template (`genericCsv`). */
import type { Requisition } from '../../src/core/requisition.ts';
import { GENERIC_HEADER } from './generic-template.ts';

/** `n` requisitions with 1-3 lines each; external_ids `${tag}-<n>-<line>` are unique. */
export function makeRequisitions(n: number, tag: string): Requisition[] {
  const due = Date.UTC(2030, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    key: `PR-${tag}-${i}`,
    sourceFile: `${tag}.csv`,
    profile: 'generic',
    title: `Requisition ${tag} ${i}`,
    due_date: due,
    rfq_type: 'Public' as const,
    lines: Array.from({ length: 1 + (i % 3) }, (_, j) => ({
      external_id: `${tag}-${i}-${j}`,
      product_name: `Item ${i}.${j}`,
      uom: 'pcs',
      qty: 1 + j,
      estimated_price: 100 * (j + 1),
      row: 2 + j,
    })),
  }));
}

/** One requisition in the generic template: `lines` lines, external_ids `${pr}-1`..`${pr}-n`. */
export function genericRows(pr: string, lines: number, title = `Requisition ${pr}`): string {
  let out = '';
  for (let i = 1; i <= lines; i++)
    out += `${pr},${i},Item ${pr}/${i},Spec ${i},pc,${i * 2},${i * 100},${title},Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n`;
  return out;
}

export function genericCsv(...requisitions: Array<[pr: string, lines: number]>): string {
  return `${GENERIC_HEADER.join(',')}\n${requisitions.map(([pr, n]) => genericRows(pr, n)).join('')}`;
}

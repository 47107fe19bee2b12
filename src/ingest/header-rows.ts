/**
 * A header over two rows, as report exports write it: names merged down over both rows ("Requisition": the value in
 * the upper cell, the lower one empty, as a merged range or its CSV reads) and group headings over sub-headings
 * ("Item details" over C:G, "Dates" over J:K). Each column's name is its lowest: the lower row's, else the upper's.
 * A group heading is kept as context: it spans its own column and the sub-headings to its right up to the next
 * heading or merged-down name.
 */
import { cellText, type Cell } from './mapping-engine.ts';

/** Each column's lowest name: the lower row's cell, else the upper row's. */
export function twoRowHeader(upper: readonly Cell[], lower: readonly Cell[]): Cell[] {
  const n = Math.max(upper.length, lower.length);
  const out: Cell[] = [];
  for (let i = 0; i < n; i++) out.push(cellText(lower[i]) !== '' ? lower[i]! : (upper[i] ?? null));
  return out;
}

export interface HeaderGroup {
  name: string;
  /** The sub-headings under it, left to right. */
  columns: string[];
}

/** The group headings of the upper row and the sub-headings under each. */
export function headerGroups(upper: readonly Cell[], lower: readonly Cell[]): HeaderGroup[] {
  const groups: HeaderGroup[] = [];
  let open: HeaderGroup | undefined;
  for (let i = 0; i < Math.max(upper.length, lower.length); i++) {
    const top = cellText(upper[i]);
    const sub = cellText(lower[i]);
    if (top !== '' && sub !== '') groups.push((open = { name: top, columns: [sub] }));
    else if (top === '' && sub !== '' && open) open.columns.push(sub);
    else open = undefined;
  }
  return groups;
}

/** The names only the upper row gives (merged down over both rows). */
export function mergedDownNames(upper: readonly Cell[], lower: readonly Cell[]): string[] {
  return upper.flatMap((c, i) => (cellText(c) !== '' && cellText(lower[i]) === '' ? [cellText(c)] : []));
}

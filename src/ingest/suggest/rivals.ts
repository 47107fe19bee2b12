/**
 * Two columns that could both feed one field of `check --suggest`: the choice is never silent. The field gets a
 * `# REVIEW:` naming both columns and why one was chosen. For the product name the values decide where they can: a
 * column whose values are tied to the item number (one value per item) is the item's name; a column whose values
 * repeat across different items ("For office move" on 5 items) is a purpose, not a name. Elsewhere the header
 * decides (an exact name before one that only contains a telling word, then the leftmost), and the review says so.
 */
import type { Concept } from './header-vocabulary.ts';
import { quoted as q, scoreOf, type Column } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';

const CONCEPTS: readonly Concept[] = [
  'requisition',
  'line',
  'lineId',
  'product',
  'specification',
  'itemNumber',
  'uom',
  'qty',
  'unitPrice',
  'total',
  'priceUnit',
  'currency',
  'dueDate',
  'requiredDate',
  'title',
  'description',
  'requester',
  'rfqType',
  'category',
  'location',
];

/** How `col`'s values go with `key`'s (row by row, both filled). */
interface Ties {
  /** Every key value goes with one value of `col`. */
  tied: boolean;
  /** The value of `col` that goes with the most different key values, and how many. */
  widest: { value: string; keys: number };
}

function ties(col: Column, key: Column): Ties {
  const byKey = new Map<string, Set<string>>();
  const byVal = new Map<string, Set<string>>();
  col.texts.forEach((v, i) => {
    const k = key.texts[i] ?? '';
    if (v === '' || k === '') return;
    (byKey.get(k) ?? byKey.set(k, new Set()).get(k)!).add(v);
    (byVal.get(v) ?? byVal.set(v, new Set()).get(v)!).add(k);
  });
  let widest = { value: '', keys: 0 };
  for (const [value, keys] of byVal) if (keys.size > widest.keys) widest = { value, keys: keys.size };
  return { tied: [...byKey.values()].every((s) => s.size === 1), widest };
}

const repeats = (c: Column, t: Ties): string =>
  `${q(c)} repeats across different items ("${t.widest.value}" on ${t.widest.keys} different items): a purpose, not a name`;

/**
 * Of two text columns that could both be the product name, the one the values show to be the item's name, with
 * why; undefined when the values do not tell (`item`: the item number column, if the file has one).
 */
export function nameByValues(
  a: Column,
  b: Column,
  item: Column | undefined,
): { chosen: Column; why: string } | undefined {
  if (item) {
    const [ta, tb] = [ties(a, item), ties(b, item)];
    // x is the name when it is tied to the item number and y repeats across more items than x does (two items may
    // share a name; a purpose is shared by many, or differs for one item)
    const nameOver = (tx: Ties, ty: Ties) =>
      tx.tied && ty.widest.keys >= 2 && (!ty.tied || ty.widest.keys > tx.widest.keys);
    for (const [x, tx, y, ty] of [
      [a, ta, b, tb],
      [b, tb, a, ta],
    ] as const)
      if (nameOver(tx, ty))
        return { chosen: x, why: `${q(x)} has one value per item number (${q(item)}); ${repeats(y, ty)}` };
    return undefined;
  }
  // no item number: the column whose value goes with more different values of the other is the purpose
  const [ta, tb] = [ties(a, b), ties(b, a)];
  if (ta.widest.keys === tb.widest.keys || Math.max(ta.widest.keys, tb.widest.keys) < 3) return undefined;
  const [x, y, ty, tx] = ta.widest.keys < tb.widest.keys ? [a, b, tb, ta] : [b, a, ta, tb];
  return {
    chosen: x,
    why: `${repeats(y, ty)}; each value of ${q(x)} goes with at most ${tx.widest.keys} of ${q(y)}'s`,
  };
}

/**
 * The review point of a field two or more columns could feed: `chosen` and the others, and why (`why` given, else
 * from their headers).
 */
export function reviewRivals(
  notes: SuggestNotes,
  field: string,
  chosen: Column,
  candidates: readonly Column[],
  concept: Concept,
  why?: string,
): void {
  // a header that only contains a telling word and names another concept exactly is that concept's
  // ("Requisitioner" is a person, not the requisition number)
  // (the product name's rivals are both text the values were compared on: never left out)
  const otherConcept = (c: Column) =>
    field !== 'product_name' && scoreOf(c, concept) < 3 && CONCEPTS.some((o) => o !== concept && scoreOf(c, o) === 3);
  const others = candidates.filter((c) => c !== chosen && !otherConcept(c));
  if (others.length === 0) return;
  const reason =
    why ??
    (others.every((o) => scoreOf(o, concept) < scoreOf(chosen, concept))
      ? `its header names the ${field} exactly; ${others.length === 1 ? 'the other one only contains' : 'the others only contain'} a telling word`
      : `both headers name the ${field}, and the values do not tell them apart: the leftmost was taken`);
  notes.review(
    field === 'currency' ? 'currency' : `fields.${field}`,
    `${q(chosen)} and ${others.map(q).join(', ')} could both be the ${field}: ${q(chosen)} was chosen (${reason}); check that it is the right one`,
  );
}

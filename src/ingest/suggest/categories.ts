/**
 * The drafted rfq_category against the account's vendor directory, when the service could be asked (the app reads it
 * for `check --suggest`): suppliers see an RFQ only in a category they follow, so each value the sample would send is
 * looked up. A value the suppliers follow is kept; one spelt differently only in letter case is drafted into
 * `category_map:` with the directory's spelling; one that matches no followed category is named in a review point,
 * with the categories that are followed. Without a directory (no service configured, none there, not reachable), the
 * evidence says so and nothing is checked.
 */
import type { SuggestNotes } from './evidence.ts';

/** The categories the account's suppliers follow, and where they were read; or why they could not be. */
export type FollowedCategories = { categories: string[]; source: string } | { unavailable: string };

/** Categories listed in a review point before `...`. */
const SHOWN = 12;

/**
 * `values`: the distinct rfq_category values the sample gives (a column's texts, or the drafted constant). Returns
 * the `category_map:` to draft (value -> the directory's spelling), or undefined when none is needed.
 */
export function draftCategories(
  values: readonly string[],
  followed: FollowedCategories | undefined,
  notes: SuggestNotes,
): Record<string, string> | undefined {
  if (!followed) return undefined;
  if ('unavailable' in followed) {
    notes.say(
      'fields.rfq_category',
      '(not checked)',
      'low',
      `the vendor directory was not read: ${followed.unavailable}`,
    );
    return undefined;
  }
  const exact = new Set(followed.categories.map((c) => c.trim()));
  const folded = new Map(followed.categories.map((c) => [c.trim().toLowerCase(), c.trim()]));
  const map: Record<string, string> = {};
  const none: string[] = [];
  for (const v of values) {
    if (exact.has(v.trim())) continue;
    const spelt = folded.get(v.trim().toLowerCase());
    if (spelt) map[v] = spelt;
    else none.push(v);
  }
  const matched = values.length - none.length - Object.keys(map).length;
  notes.say(
    'fields.rfq_category',
    `${matched} of ${values.length} followed`,
    none.length === 0 ? 'high' : 'low',
    `${values.length} value(s) in the sample against the ${followed.categories.length} categories the account's suppliers follow (${followed.source})${Object.keys(map).length > 0 ? `; ${Object.keys(map).length} differ only in letter case: category_map gives the directory's spelling` : ''}`,
  );
  if (none.length > 0) {
    const shown = followed.categories.slice(0, SHOWN).map((c) => `"${c}"`);
    notes.review(
      'fields.rfq_category',
      `${none.map((v) => `"${v}"`).join(', ')} match${none.length === 1 ? 'es' : ''} no category the account's suppliers follow, so an RFQ in ${none.length === 1 ? 'it' : 'them'} reaches nobody: map each to one of ${shown.join(', ')}${followed.categories.length > SHOWN ? `, ... (${followed.categories.length} in all)` : ''} with category_map, or ask for the category at the service`,
    );
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

/**
 * CATEGORY_CHECK at ingest: a requisition whose rfq_category no vendor of the account follows would become an RFQ
 * that reaches no supplier. `hold` keeps it back (a row error in the file report, counted in `status`), `warn`
 * sends it with a warning (file report, log, `status`), `off` does not look. Only with a readable directory: where
 * the service has none, nothing is checked (never blocking); where it could not be read yet, `warn` checks nothing
 * and `hold` keeps the whole file until it is read (src/intake/ingest-category-check.ts).
 */
import { minuteText } from '../core/index.ts';
import { categoryCounts, caseVariantOf, followersOf, readable, type VendorDirectory } from './vendor-directory.ts';

export type CategoryCheckMode = 'hold' | 'warn' | 'off';

export interface CategoryVerdict {
  severity: 'error' | 'warning';
  reason: string;
}

/** How many known categories a message names (doctor lists them all). */
const NAMED = 8;

/**
 * The check for one ingest, or undefined when nothing is checked (`off`, no readable directory). It takes the
 * requisition's category (undefined: none, which the required-field check reports already).
 */
export function categoryChecker(
  mode: CategoryCheckMode,
  dir: VendorDirectory | undefined,
): ((category: string | undefined) => CategoryVerdict | undefined) | undefined {
  if (mode === 'off' || !readable(dir)) return undefined;
  const vendors = dir.vendors;
  const known = categoryCounts(vendors).map((c) => c.category);
  const named = known.slice(0, NAMED).map((c) => `"${c}"`);
  const listed =
    known.length === 0 ? 'none' : `${named.join(', ')}${known.length > NAMED ? `, ... (${known.length} in all)` : ''}`;
  const asOf = minuteText(dir.readAt);
  return (category) => {
    if (category === undefined || category.trim() === '') return undefined;
    if (followersOf(vendors, category).length > 0) return undefined;
    const variant = caseVariantOf(vendors, category);
    const what =
      `no vendor of the account follows rfq_category "${category}" (vendor directory of ${asOf} UTC), so its RFQ would reach no supplier` +
      (variant
        ? `; the directory has "${variant}" (only the letter case differs)`
        : `; categories followed: ${listed}`);
    return mode === 'hold'
      ? {
          severity: 'error',
          reason: `${what}. Held (CATEGORY_CHECK=hold): map it to a followed category (category_map in the profile) or fix it in the ERP`,
        }
      : { severity: 'warning', reason: `${what}. Sent anyway (CATEGORY_CHECK=warn)` };
  };
}

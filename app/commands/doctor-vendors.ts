/**
 * `rfq-sync doctor`'s part on the account's vendor directory: read it now (and store it, as the poll would), then
 * say what was found: the path that answered, the categories with the number of vendors following each, or that the
 * service has none (said here once; nothing else stops for it).
 */
import { type VendorDirectory, categoryCounts } from '../../src/vendors/index.ts';
import { minuteText } from '../../src/core/index.ts';

const when = (ms: number): string => `${minuteText(ms)} UTC`;

/** The directory as `doctor --json` prints it. */
export function vendorDirectoryJson(d: VendorDirectory): Record<string, unknown> {
  return {
    outcome: d.outcome,
    ...(d.path ? { path: d.path } : {}),
    ...(d.detail ? { detail: d.detail } : {}),
    vendors: d.vendors.length,
    invalid: d.invalid,
    ...(d.readAt !== undefined ? { readAt: new Date(d.readAt).toISOString() } : {}),
    categories: categoryCounts(d.vendors),
  };
}

/** The lines `doctor` prints about the directory. */
export function vendorDirectoryLines(d: VendorDirectory, categoryCheck: string): string[] {
  if (d.outcome === 'absent')
    return [
      `vendor directory:   none (${d.detail}): the service has no vendor directory; CATEGORY_CHECK=${categoryCheck} checks nothing and workbooks show no response rate`,
    ];
  const head =
    d.outcome === 'failed'
      ? `vendor directory:   could not be read now (${d.detail})${d.readAt !== undefined ? `; using the one read ${when(d.readAt)}` : ''}`
      : `vendor directory:   GET ${d.path}: ${d.vendors.length} vendors${d.invalid ? ` (${d.invalid} left out: they break the schema)` : ''}, read ${when(d.readAt!)}; CATEGORY_CHECK=${categoryCheck}`;
  const counts = categoryCounts(d.vendors);
  if (d.readAt === undefined) return [head];
  const width = Math.min(40, Math.max(8, ...counts.map((c) => c.category.length)));
  return [
    head,
    `categories (${counts.length}; vendors following each):`,
    ...(counts.length === 0 ? ['  (no vendor follows any category)'] : []),
    ...counts.map((c) => `  ${c.category.padEnd(width)}  ${String(c.vendors).padStart(4)}`),
  ];
}

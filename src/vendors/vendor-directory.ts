/**
 * The vendor directory as rfq-sync keeps it (vendor-store.ts) and what it answers: which categories the account's
 * suppliers follow and how many follow each, who follows one category. Pure: no Redis, no HTTP.
 * A category matches when it is the same text after trimming; one that differs only in case is named as a likely
 * misspelling, never taken for a match (the service need not match it either).
 */
import type { Vendor } from '../sourcing/index.ts';

export interface VendorDirectory {
  /** Unix ms of the last attempt to read it (ok, absent or failed). */
  fetchedAt: number;
  /** What the last attempt found: the directory, no directory (404/405 on both paths), or an error. */
  outcome: 'ok' | 'absent' | 'failed';
  /** The path that answered (`/v1/vendors` or `/v1/vendor/`). */
  path?: string;
  /** The vendors of the last successful read (kept when a later read fails). */
  vendors: Vendor[];
  /** Unix ms of the last successful read; absent when the directory was never read. */
  readAt?: number;
  /** Vendor records left out because they broke the schema (last successful read). */
  invalid: number;
  /** Why the last attempt failed, or which paths answered 404/405. */
  detail?: string;
}

/** A directory whose vendors may be used: read successfully at least once and not found absent since. */
export function readable(d: VendorDirectory | undefined): d is VendorDirectory & { readAt: number } {
  return d !== undefined && d.readAt !== undefined && d.outcome !== 'absent';
}

/** Every category with the number of vendors following it, most followed first (then by name). */
export function categoryCounts(vendors: readonly Vendor[]): Array<{ category: string; vendors: number }> {
  const counts = new Map<string, number>();
  for (const v of vendors) for (const c of v.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts]
    .map(([category, n]) => ({ category, vendors: n }))
    .sort((a, b) => b.vendors - a.vendors || a.category.localeCompare(b.category));
}

/** The vendors following `category` (same text after trimming), in directory order. */
export function followersOf(vendors: readonly Vendor[], category: string): Vendor[] {
  const want = category.trim();
  return vendors.filter((v) => v.categories.includes(want));
}

/** A category of the directory spelt like `category` but for the letter case (a likely typo), if any. */
export function caseVariantOf(vendors: readonly Vendor[], category: string): string | undefined {
  const want = category.trim().toLowerCase();
  for (const v of vendors)
    for (const c of v.categories) if (c.toLowerCase() === want && c !== category.trim()) return c;
  return undefined;
}

/**
 * Who was asked, who answered: the vendors following the RFQ's category (the account's vendor directory) against
 * the quotations received, so procurement can chase those who did not quote before the award. A quotation is a
 * vendor's when its key is the vendor's `_id` or its supplier name is the vendor's (letter case and spacing aside).
 * Pure: decimal maths only.
 */
import { Decimal } from 'decimal.js';
import type { CategoryVendors, ResponseRate, SupplierSummary, VendorContact } from './types.ts';

const norm = (s: string): string => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The quotation is this vendor's: same key as its `_id`, or the same supplier name. */
const quotes = (s: SupplierSummary, v: VendorContact): boolean =>
  s.key === v.id || (v.name !== '' && norm(s.name) === norm(v.name));

export function responseRate(
  input: CategoryVendors | undefined,
  suppliers: readonly SupplierSummary[],
): ResponseRate | undefined {
  if (!input) return undefined;
  const { category } = input;
  if (input.following === undefined)
    return {
      ...(category !== undefined ? { category } : {}),
      following: 0,
      quoted: 0,
      others: suppliers.length,
      notQuoted: [],
      unavailable: input.unavailable ?? 'the vendor directory is not available',
    };
  const following = input.following;
  const notQuoted = following.filter((v) => !suppliers.some((s) => quotes(s, v)));
  const quoted = following.length - notQuoted.length;
  return {
    ...(category !== undefined ? { category } : {}),
    following: input.following.length,
    quoted,
    others: suppliers.filter((s) => !following.some((v) => quotes(s, v))).length,
    ...(input.following.length > 0 ? { rate: new Decimal(quoted).div(input.following.length) } : {}),
    notQuoted,
    ...(input.asOf !== undefined ? { asOf: input.asOf } : {}),
  };
}

/** One line for procurement: "3 of 5 vendors following "Office supplies" quoted (60%)", or why there is no figure. */
export function responseText(r: ResponseRate): string {
  const cat = r.category !== undefined ? `"${r.category}"` : '(no category)';
  if (r.unavailable !== undefined) return `No response rate: ${r.unavailable}.`;
  if (r.following === 0)
    return `No vendor follows ${cat}: the RFQ reached no supplier through its category (only invited ones).`;
  const pct = r.rate!.mul(100).toDecimalPlaces(0).toFixed();
  const others = r.others > 0 ? `; ${r.others} more quotation(s) from suppliers not following it` : '';
  return `${r.quoted} of ${r.following} vendors following ${cat} quoted (${pct}%)${others}.`;
}

/**
 * `check --suggest` drafts `product_code`, the key of the price history (the last price paid for a product), from
 * the line-level column holding the ERP's material or item number (`Material`, `Item`, `No.`, `Artikel`...: the one
 * suggest/text-fields.ts also puts before the specification).
 */
import { quoted as q, ref, type Column } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';

export function draftProductCode(itemNo: Column | undefined, notes: SuggestNotes): { product_code?: string } {
  if (!itemNo) return {};
  const product_code = ref(itemNo);
  notes.say(
    'fields.product_code',
    product_code,
    'medium',
    `${q(itemNo)} holds the item number: the last price paid is looked up by it (else by product name and unit)`,
  );
  return { product_code };
}

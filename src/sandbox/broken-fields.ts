/**
 * Fields an RFQ is rendered with in a shape that breaks the interface's schema (StoredRfq.broken, set through the
 * control API): one bad field of one RFQ, for the tests of "one bad field never stops the loop". Applied to the
 * rendered record whatever its shape, so a path names the field as the client sees it (`lines.0.qty`, `due_date`).
 */
import type { StoredRfq } from './store.ts';

/** Set `value` at a dotted path of a rendered record (missing objects on the way are created). */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o: Record<string, unknown> = target;
  for (const p of parts.slice(0, -1)) {
    const next = o[p];
    if (!next || typeof next !== 'object') o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

/** The rendered RFQ with its broken fields (those not under `quotations.`). */
export function withBrokenRfqFields(r: StoredRfq, rendered: Record<string, unknown>): Record<string, unknown> {
  if (!r.broken) return rendered;
  for (const [path, value] of Object.entries(r.broken))
    if (!path.startsWith('quotations.')) setPath(rendered, path, value);
  return rendered;
}

/** A rendered quotation with the broken fields of `quotations.<key>.<field>`. */
export function withBrokenQuotationFields(
  r: StoredRfq,
  key: string,
  rendered: Record<string, unknown>,
): Record<string, unknown> {
  if (!r.broken) return rendered;
  const prefix = `quotations.${key}.`;
  for (const [path, value] of Object.entries(r.broken))
    if (path.startsWith(prefix)) setPath(rendered, path.slice(prefix.length), value);
  return rendered;
}

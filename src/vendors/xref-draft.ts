/**
 * A draft of the ERP's vendor cross-reference (`rfq-sync vendors --xref-draft FILE`): one row per vendor of the
 * account's directory (its id as supplier_key) and per supplier seen in a quotation that is none of them, with the
 * ERP ids an existing VENDOR_XREF_FILE already gives filled in and the others left empty for IT to fill. The same
 * columns the cross-reference is read with (src/erp/vendor-xref-file.ts), plus `seen_in` for the reader.
 */
import { safeCellText } from '../core/index.ts';
import { foldName, XREF_COLUMNS, XREF_OPTIONAL } from '../erp/index.ts';
import type { Vendor } from '../sourcing/index.ts';

export interface DraftRow {
  supplierKey: string;
  supplierName: string;
  erpVendorId: string;
  erpVendorSite: string;
  seenIn: string;
}

/** Known ERP vendor of a supplier (an existing cross-reference), if any. */
export type KnownVendor = (key: string, name: string) => { id: string; site?: string } | undefined;

export function xrefDraftRows(
  vendors: readonly Vendor[],
  seen: Readonly<Record<string, string>>,
  known: KnownVendor,
): DraftRow[] {
  const rows = new Map<string, DraftRow>();
  const byName = new Map<string, DraftRow>();
  const add = (key: string, name: string, seenIn: string) => {
    const same = rows.get(key) ?? byName.get(foldName(name));
    if (same) {
      if (!same.seenIn.includes(seenIn)) same.seenIn += ` and ${seenIn}`;
      return;
    }
    const v = known(key, name);
    const row = {
      supplierKey: key,
      supplierName: name,
      erpVendorId: v?.id ?? '',
      erpVendorSite: v?.site ?? '',
      seenIn,
    };
    rows.set(key, row);
    if (name) byName.set(foldName(name), row);
  };
  for (const v of vendors) add(v.id, v.name, 'vendor directory');
  for (const [key, name] of Object.entries(seen)) add(key, name, 'quotations');
  return [...rows.values()].sort(
    (a, b) => a.supplierName.localeCompare(b.supplierName) || a.supplierKey.localeCompare(b.supplierKey),
  );
}

const field = (v: string): string => {
  const t = safeCellText(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

/** The draft as a CSV (UTF-8 with a byte-order mark, so Excel shows the names right; comma; CRLF). */
export function xrefDraftCsv(rows: readonly DraftRow[]): string {
  const head = [...XREF_COLUMNS, ...XREF_OPTIONAL, 'seen_in'];
  const body = rows.map((r) =>
    [r.supplierKey, r.supplierName, r.erpVendorId, r.erpVendorSite, '', '', r.seenIn].map(field).join(','),
  );
  return `\uFEFF${[head.join(','), ...body].join('\r\n')}\r\n`;
}

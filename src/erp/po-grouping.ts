/**
 * Purchase orders from an award: its lines grouped by the profile's `group_by` (by default one PO per requisition and
 * supplier, so a split award gives one PO per supplier), each PO with the ERP's vendor from the cross-reference.
 * POs are numbered in the order of their first line in the RFQ; lines keep the RFQ's order.
 */
import type { ErpAward, ErpAwardLine } from './award.ts';
import { VOCABULARY, type ErpPo, type VendorRef } from './vocabulary.ts';

/** The ERP's vendor of a supplier, or undefined when the cross-reference does not know it. */
export type VendorOf = (supplierKey: string, supplierName: string) => VendorRef | undefined;

/** A supplier the cross-reference does not give every field the profiles need for. */
export interface MissingVendor {
  supplierKey: string;
  supplierName: string;
  /** What is missing: `erp_vendor_id`, `erp_vendor_site`. */
  fields: string[];
}

/** The award's winners whose vendor fields (`erp_vendor_id`, `erp_vendor_site`) the cross-reference lacks. */
export function missingVendors(award: ErpAward, fields: readonly string[], vendorOf: VendorOf): MissingVendor[] {
  const out = new Map<string, MissingVendor>();
  for (const l of award.lines) {
    if (out.has(l.supplierKey)) continue;
    const v = vendorOf(l.supplierKey, l.supplierName);
    const lacking = fields.filter((f) => (f === 'erp_vendor_id' ? !v?.id : !v?.site));
    if (lacking.length > 0)
      out.set(l.supplierKey, { supplierKey: l.supplierKey, supplierName: l.supplierName, fields: lacking });
  }
  return [...out.values()];
}

/** The value of a grouping field for a line (award and line fields read the line; PO fields its supplier). */
function groupValue(award: ErpAward, field: string, line: ErpAwardLine, vendor: VendorRef): string {
  const probe: ErpPo = {
    seq: 0,
    supplierKey: line.supplierKey,
    supplierName: line.supplierName,
    vendor,
    lines: [line],
  };
  const v = VOCABULARY[field]!.get(award, probe, line, 1);
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if ('day' in (v as object)) return (v as { day: string }).day;
  if ('at' in (v as object)) return String((v as { at: number }).at);
  return (v as { toFixed(): string }).toFixed();
}

/** The POs of the award. Every supplier must be known to `vendorOf` (missingVendors first: else the RFQ is held). */
export function groupPos(award: ErpAward, groupBy: readonly string[], vendorOf: VendorOf): ErpPo[] {
  const pos = new Map<string, ErpPo>();
  for (const line of award.lines) {
    const vendor = vendorOf(line.supplierKey, line.supplierName) ?? { id: '' };
    const key = JSON.stringify(groupBy.map((f) => groupValue(award, f, line, vendor)));
    let po = pos.get(key);
    if (!po) {
      po = { seq: pos.size + 1, supplierKey: line.supplierKey, supplierName: line.supplierName, vendor, lines: [] };
      pos.set(key, po);
    }
    po.lines.push(line);
  }
  return [...pos.values()];
}

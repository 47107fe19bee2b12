/**
 * What `rfq-sync status` says of the ERP-id guard and the vendor directory: RFQs whose award file was withheld
 * (their listed lines no longer match what was posted), awards whose ERP files wait for the vendor cross-reference,
 * and the directory as last read.
 */
import type { HeldErpFiles } from '../../src/awarding/index.ts';
import type { VendorDirectory } from '../../src/vendors/index.ts';
import type { WithheldAward } from '../../src/rfqs/index.ts';

export interface StatusVendorDirectory {
  outcome: VendorDirectory['outcome'];
  path?: string;
  vendors: number;
  /** ISO time of the last successful read. */
  readAt?: string;
  detail?: string;
}

export interface StatusWithheldAward {
  rfqId: number;
  version: number;
  reason: string;
  at: string;
}

/** An award whose ERP files wait for VENDOR_XREF_FILE to know its winners. */
export interface StatusErpHeld {
  rfqId: number;
  version: number;
  /** `Orbit IT Services (key 104): no erp_vendor_id`. */
  suppliers: string[];
  since: string;
}

export function statusErpHeld(h: HeldErpFiles[]): StatusErpHeld[] {
  return h.map((x) => ({
    rfqId: x.rfqId,
    version: x.version,
    suppliers: x.missing.map(
      (m) => `${m.supplierName || '(no name)'} (key ${m.supplierKey}): no ${m.fields.join(', ')}`,
    ),
    since: new Date(x.at).toISOString(),
  }));
}

export function statusVendorDirectory(d: VendorDirectory | undefined): StatusVendorDirectory | null {
  if (!d) return null;
  return {
    outcome: d.outcome,
    ...(d.path ? { path: d.path } : {}),
    vendors: d.vendors.length,
    ...(d.readAt !== undefined ? { readAt: new Date(d.readAt).toISOString() } : {}),
    ...(d.detail ? { detail: d.detail } : {}),
  };
}

export function statusWithheld(w: WithheldAward[]): StatusWithheldAward[] {
  return w.map((x) => ({ rfqId: x.rfqId, version: x.version, reason: x.reason, at: new Date(x.at).toISOString() }));
}

/** The human lines: withheld awards first (the ERP is waiting), then the directory in one line. */
/** A file held in the inbox until the vendor directory is read (src/intake/category-held-files.ts). */
export interface StatusCategoryHeldFile {
  inboxName: string;
  file: string;
  requisitions: number;
  reason: string;
  at: string;
  report: string;
}

export function vendorStatusLines(r: {
  awardsWithheld: StatusWithheldAward[];
  erpFilesHeld?: StatusErpHeld[];
  vendorDirectory: StatusVendorDirectory | null;
  categoryHeldFiles?: StatusCategoryHeldFile[];
}): string[] {
  const lines: string[] = [];
  const held = r.categoryHeldFiles ?? [];
  if (held.length > 0) {
    lines.push(
      'HELD IN THE INBOX until the vendor directory is read (CATEGORY_CHECK=hold; nothing sent unchecked; `rfq-sync doctor` reads it now):',
    );
    for (const h of held)
      lines.push(`  ${h.at}  ${h.inboxName}: ${h.requisitions} requisition(s); ${h.reason}  [report ${h.report}]`);
  }
  if (r.awardsWithheld.length > 0) {
    lines.push(
      `AWARD FILES WITHHELD (${r.awardsWithheld.length}${r.awardsWithheld.length > 20 ? ', showing 20' : ''}; the RFQ's lines at the service no longer match what was posted, so their ERP ids are not certain):`,
    );
    for (const w of r.awardsWithheld.slice(0, 20))
      lines.push(`  ${w.at}  RFQ ${w.rfqId} (comparison v${w.version}): ${w.reason}`);
  }
  const erp = r.erpFilesHeld ?? [];
  if (erp.length > 0) {
    lines.push(
      `ERP FILES HELD (${erp.length}): no ERP vendor for a winner in VENDOR_XREF_FILE; written on the first poll after it has one:`,
    );
    for (const h of erp.slice(0, 20))
      lines.push(`  ${h.since}  RFQ ${h.rfqId} (award v${h.version}): ${h.suppliers.join('; ')}`);
  }
  const d = r.vendorDirectory;
  lines.push(
    !d
      ? 'Vendor directory: not read yet (the poll reads it; `rfq-sync doctor` now)'
      : d.outcome === 'absent'
        ? `Vendor directory: none at the service (${d.detail ?? '404'}); categories are not checked`
        : `Vendor directory: ${d.vendors} vendors${d.path ? ` from ${d.path}` : ''}${d.readAt ? `, read ${d.readAt}` : ''}${d.outcome === 'failed' ? `; the last read FAILED: ${d.detail ?? ''}` : ''}`,
  );
  return lines;
}

/**
 * `rfq-sync vendors --xref-draft FILE`: a draft of the vendor cross-reference for IT to fill with the ERP's vendor
 * ids: the account's vendor directory and every supplier seen in a quotation (both from Redis, as the poll and the
 * comparisons keep them), with the ids VENDOR_XREF_FILE already gives filled in. Never replaces a file.
 */
import { resolve } from 'node:path';
import { writeNewFileAtomically, type Logger } from '../../src/core/index.ts';
import { openVendorXref } from '../../src/erp/index.ts';
import type { Config } from '../../src/settings/index.ts';
import { suppliersSeen, vendorStore, xrefDraftCsv, xrefDraftRows } from '../../src/vendors/index.ts';
import { EXIT_FAILED, EXIT_OK, out } from '../cli-support.ts';
import { withReadContext } from './context.ts';

export async function runVendorsCommand(config: Config, logger: Logger, o: { xrefDraft: string }): Promise<number> {
  const path = resolve(o.xrefDraft);
  const known = config.VENDOR_XREF_FILE
    ? await openVendorXref(config.VENDOR_XREF_FILE, { company: config.ERP_COMPANY_CODE, plant: config.ERP_PLANT })
    : undefined;
  const index = await known?.current();
  const rows = await withReadContext(config, logger, 'vendors', async (ctx) => {
    const [dir, seen] = await Promise.all([vendorStore(ctx).stored(), suppliersSeen(ctx)]);
    return xrefDraftRows(dir?.vendors ?? [], seen, (key, name) => index?.vendorOf(key, name));
  });
  if ((await writeNewFileAtomically(path, xrefDraftCsv(rows))) === 'exists') {
    out(`rfq-sync: ${path} exists already: nothing written (give a new file name)`);
    return EXIT_FAILED;
  }
  const open = rows.filter((r) => !r.erpVendorId).length;
  out(
    `${path}: ${rows.length} supplier(s), ${open} without an ERP vendor id yet. Fill erp_vendor_id (and erp_vendor_site where a profile needs it), then point VENDOR_XREF_FILE at it.`,
  );
  return EXIT_OK;
}

/**
 * The vendor cross-reference: a winning quotation's supplier (its key at the service and its name) -> the ERP's
 * vendor (and supplier site). A row is found by the supplier's key first, else by its name (letter case and spacing
 * aside); rows limited to a `company` or `plant` apply only where ERP_COMPANY_CODE / ERP_PLANT say so, and win over
 * rows without. Never a guess: a supplier with no row, a row without an ERP id, or rows that disagree leave it
 * unknown, and its RFQ's ERP files wait. The file is re-read whenever its size or time changes; a file that
 * breaks later keeps the last good one in use and says why.
 */
import { stat } from 'node:fs/promises';
import { VendorXrefError } from '../core/index.ts';
import type { VendorRef } from './vocabulary.ts';
import { readXrefFile, type XrefRow } from './vendor-xref-file.ts';

export const foldName = (s: string): string => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

export interface XrefScope {
  company?: string | undefined;
  plant?: string | undefined;
}

export interface XrefIndex {
  /** The ERP vendor of a supplier, or undefined when the cross-reference does not say (or says two things). */
  vendorOf(supplierKey: string, supplierName: string): VendorRef | undefined;
  rows: number;
}

/** The rows that apply to `scope`, most specific first (company and plant, one of them, neither). */
function applicable(rows: readonly XrefRow[], scope: XrefScope): XrefRow[] {
  const fits = rows.filter((r) => (!r.company || r.company === scope.company) && (!r.plant || r.plant === scope.plant));
  const rank = (r: XrefRow) => (r.company ? 2 : 0) + (r.plant ? 1 : 0);
  const best = Math.max(-1, ...fits.map(rank));
  return fits.filter((r) => rank(r) === best);
}

function agreed(rows: readonly XrefRow[]): VendorRef | undefined {
  const ids = new Set(rows.map((r) => r.erpVendorId));
  if (ids.size !== 1) return undefined;
  const id = [...ids][0]!;
  if (!id) return undefined;
  const sites = new Set(rows.map((r) => r.erpVendorSite).filter(Boolean));
  return sites.size === 1 ? { id, site: [...sites][0]! } : { id };
}

/** Two rows for one supplier key in one scope with different ERP vendors: refused, both rows named. */
function checkConflicts(file: string, rows: readonly XrefRow[]): void {
  const seen = new Map<string, XrefRow>();
  for (const r of rows) {
    if (!r.supplierKey || !r.erpVendorId) continue;
    const k = JSON.stringify([r.supplierKey, r.company, r.plant]);
    const other = seen.get(k);
    if (other && other.erpVendorId !== r.erpVendorId)
      throw new VendorXrefError(
        `vendor cross-reference ${file} row ${r.row}: erp_vendor_id: supplier_key ${r.supplierKey} is ${r.erpVendorId} here and ${other.erpVendorId} on row ${other.row}`,
      );
    seen.set(k, r);
  }
}

export function indexXref(file: string, rows: readonly XrefRow[], scope: XrefScope): XrefIndex {
  checkConflicts(file, rows);
  const byKey = new Map<string, XrefRow[]>();
  const byName = new Map<string, XrefRow[]>();
  for (const r of rows) {
    if (r.supplierKey) byKey.set(r.supplierKey, [...(byKey.get(r.supplierKey) ?? []), r]);
    if (r.supplierName) byName.set(foldName(r.supplierName), [...(byName.get(foldName(r.supplierName)) ?? []), r]);
  }
  return {
    rows: rows.length,
    vendorOf(supplierKey, supplierName) {
      const byItsKey = applicable(byKey.get(supplierKey) ?? [], scope);
      if (byItsKey.length > 0) return agreed(byItsKey);
      return agreed(applicable(byName.get(foldName(supplierName)) ?? [], scope));
    },
  };
}

export interface VendorXref {
  file: string;
  /** The index as the file stands now: re-read when its size or modification time changed. */
  current(): Promise<XrefIndex>;
  /** Why the file as it stands could not be used (the last good one is in use), if it could not. */
  problem(): string | undefined;
}

/** A cross-reference that reloads itself; the first read throws a VendorXrefError when the file cannot be used. */
export async function openVendorXref(file: string, scope: XrefScope): Promise<VendorXref> {
  const stamp = async () => {
    const s = await stat(file).catch(() => undefined);
    return s ? `${s.size}:${s.mtimeMs}` : 'gone';
  };
  let seen = await stamp();
  let index = indexXref(file, await readXrefFile(file), scope);
  let problem: string | undefined;
  return {
    file,
    problem: () => problem,
    async current() {
      const now = await stamp();
      if (now === seen) return index;
      seen = now;
      try {
        index = indexXref(file, await readXrefFile(file), scope);
        problem = undefined;
      } catch (err) {
        if (!(err instanceof VendorXrefError)) throw err;
        problem = err.message;
      }
      return index;
    },
  };
}

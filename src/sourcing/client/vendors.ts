/**
 * Reading the account's vendor directory: `GET /v1/vendors` (vendor_category.rst), else the path the list example
 * shows, `GET /v1/vendor/` (vendor.rst). Every page is read through the transport's pagination when the answer
 * carries `links` (the documentation shows none: one answer is then the whole list). Each vendor is read on its own:
 * one that breaks the schema is left out and reported. 404 or 405 on both paths: the service has no directory
 * (`absent`), which is not an error; anything else (401, 5xx after the retries, a broken envelope) throws.
 */
import { PermanentHttpError } from '../../core/index.ts';
import { invalidResponse, pagesOf, type ClientContext } from './context.ts';
import { firstIssue } from '../schemas.ts';
import type { FetchedPage } from '../transport/index.ts';
import { toVendor, vendorListEnvelopeSchema, vendorSchema } from '../vendor-schemas.ts';
import type { InvalidVendor, Vendor, VendorListing } from '../vendor-types.ts';

/** Tried in this order; the first that exists is the directory. */
export const VENDOR_PATHS = ['/v1/vendors', '/v1/vendor/'] as const;

const ABSENT = new Set([404, 405]);

export async function listVendors(c: ClientContext, opts: { signal?: AbortSignal } = {}): Promise<VendorListing> {
  const tried: Array<{ path: string; status: number }> = [];
  for (const path of VENDOR_PATHS) {
    try {
      return await readAllPages(c, path, opts.signal);
    } catch (err) {
      if (err instanceof PermanentHttpError && ABSENT.has(err.status)) {
        tried.push({ path, status: err.status });
        continue;
      }
      throw err;
    }
  }
  return { outcome: 'absent', tried };
}

interface VendorPage {
  vendors: Vendor[];
  invalid: InvalidVendor[];
}

async function readAllPages(c: ClientContext, path: string, signal: AbortSignal | undefined): Promise<VendorListing> {
  const pages = pagesOf<VendorPage>(
    c,
    'listVendors',
    (p) => p.vendors.length === 0 && p.invalid.length === 0,
    (page) => fetchVendorPage(c, path, page, signal),
  );
  const byId = new Map<string, Vendor>();
  const invalid: InvalidVendor[] = [];
  let count = 0;
  for await (const { items } of pages) {
    count++;
    // offset pages may shift while read: a vendor seen twice is one vendor
    for (const v of items.vendors) if (!byId.has(v.id)) byId.set(v.id, v);
    invalid.push(...items.invalid);
  }
  for (const bad of invalid.slice(0, 5))
    c.logger.warn(
      { operation: 'listVendors', path, page: bad.page, index: bad.index, vendorId: bad.id, reason: bad.reason },
      'vendor record breaks the schema; left out',
    );
  return { outcome: 'ok', path, vendors: [...byId.values()], invalid, pages: count };
}

async function fetchVendorPage(
  c: ClientContext,
  path: string,
  page: number,
  signal: AbortSignal | undefined,
): Promise<FetchedPage<VendorPage>> {
  // Deliberately alike in client/list-rfqs.ts and client/vendors.ts: each endpoint spells out its own request.
  const { json } = await c.transport.requestJson({
    operation: 'listVendors',
    method: 'GET',
    path,
    query: { page: page === 1 ? undefined : page },
    signal,
  });
  const env = vendorListEnvelopeSchema.safeParse(json);
  if (!env.success) throw invalidResponse('listVendors', env.error);
  const vendors: Vendor[] = [];
  const invalid: InvalidVendor[] = [];
  env.data.vendors.forEach((raw, index) => {
    const v = vendorSchema.safeParse(raw);
    if (v.success) {
      vendors.push(toVendor(v.data));
      return;
    }
    const { field, reason } = firstIssue(v.error);
    const id = (raw as { _id?: unknown } | null)?._id;
    invalid.push({
      page,
      index,
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
      reason: `field ${field}: ${reason}`,
    });
  });
  return { items: { vendors, invalid }, next: env.data.links?.next, last: env.data.links?.last };
}

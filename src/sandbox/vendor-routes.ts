/**
 * The sandbox's vendor directory endpoints, per dialect:
 * - `friendly`: `GET /v1/vendors` (optionally `?categories=A|B`), categories as arrays, pages with links/meta as the
 *   RFQ list has them;
 * - `docs`, as the real service's documentation shows it: the list at `GET /v1/vendor/` (vendor.rst) and the list by
 *   category at `GET /v1/vendors/?categories=A|B` (vendor_category.rst; without `categories` there is no such
 *   endpoint), categories as `"0"`-keyed objects, one answer without links.
 * Without a directory (`vendors: false`) every path answers 404, as a service that has none.
 */
import type { ApiCall, ApiContext } from './api-call.ts';
import type { SandboxVendor } from './vendors.ts';

/** The vendor paths of the API (after the prefix); undefined: not a vendor path. */
export function vendorPath(path: string): 'vendors' | 'vendor' | undefined {
  if (/^\/v1\/vendors\/?$/.test(path)) return 'vendors';
  if (/^\/v1\/vendor\/?$/.test(path)) return 'vendor';
  return undefined;
}

export function listVendors(ctx: ApiContext, call: ApiCall, which: 'vendors' | 'vendor'): void {
  const { send, url } = call;
  const notFound = () => send(404, { error: 'not_found', message: `no such endpoint: ${call.path}` });
  if (!ctx.vendors) return notFound();
  const asked = url.searchParams.get('categories');
  const wanted = asked === null ? undefined : new Set(asked.split('|').map((c) => c.trim()));
  // friendly: /v1/vendors only; docs: /v1/vendor/ lists, /v1/vendors/ only by category
  if (ctx.docs ? which === 'vendors' && !wanted : which === 'vendor') return notFound();
  const all = ctx.vendors.filter((v) => !wanted || v.categories.some((c) => wanted.has(c)));
  if (ctx.faults.invalidJson()) return call.sendBroken();
  if (ctx.docs) return send(200, { vendors: all.map((v) => render(v, true)) });
  const pageParam = url.searchParams.get('page');
  if (pageParam !== null && !/^[1-9]\d{0,8}$/.test(pageParam))
    return send(400, { error: 'bad_request', message: 'page must be a positive integer' });
  const page = pageParam === null ? 1 : Number(pageParam);
  const last = Math.max(1, Math.ceil(all.length / ctx.pageSize));
  const base = `${ctx.linksOrigin ?? `http://${call.req.headers.host ?? 'localhost'}`}${ctx.prefix}/v1/vendors?${asked === null ? '' : `categories=${encodeURIComponent(asked)}&`}page=`;
  return send(200, {
    vendors: all.slice((page - 1) * ctx.pageSize, page * ctx.pageSize).map((v) => render(v, false)),
    links: { next: page < last ? `${base}${page + 1}` : null, last: `${base}${last}` },
    meta: { total: all.length },
  });
}

function render(v: SandboxVendor, keyed: boolean): Record<string, unknown> {
  return {
    ...v,
    categories: keyed ? Object.fromEntries(v.categories.map((c, i) => [String(i), c])) : [...v.categories],
  };
}

/**
 * The sandbox's API (/v1/...): every call is timed for the stats, may be refused or delayed by the faults, must
 * carry a known bearer token of an active account, then goes to the handler of its resource.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiCall, ApiContext } from './api-call.ts';
import { sendBroken, sendJson } from './http-io.ts';
import { listQuotations } from './quotation-routes.ts';
import { createRfq, listRfqs, rfqDetail } from './rfq-routes.ts';
import { listVendors, vendorPath } from './vendor-routes.ts';

type Send = ApiCall['send'];

export async function api(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const detailMatch = /^\/v1\/rfqs\/([^/]+)\/?$/.exec(path);
  const op = operationOf(method, path, detailMatch !== null && ctx.docs);
  const now = Date.now();
  ctx.calls.arrived(now);
  const send: Send = (status, body, headers = {}) => {
    ctx.calls.count(op, status);
    sendJson(res, status, body, headers);
  };

  const rejection = ctx.faults.beforeCall(now);
  await ctx.delays.wait(ctx.faults.latencyMs);
  if (rejection) {
    const headers: Record<string, string> =
      rejection.retryAfterSeconds !== undefined ? { 'retry-after': String(rejection.retryAfterSeconds) } : {};
    const error =
      rejection.status === 429
        ? 'too_many_requests'
        : rejection.status === 401
          ? 'unauthorized'
          : 'service_unavailable';
    return send(rejection.status, { error, message: rejection.reason }, headers);
  }

  const company = authenticate(ctx, req.headers.authorization, send);
  if (company === undefined) return;
  const call: ApiCall = {
    req,
    res,
    url,
    path,
    method,
    op,
    company,
    send,
    sendBroken: () => sendBroken(res, () => ctx.calls.count(op, 200)),
  };

  if (path === '/v1/rfqs' && method === 'POST') return createRfq(ctx, call);
  if (detailMatch && ctx.docs) return rfqDetail(ctx, call, detailMatch[1]!);
  if (method !== 'GET') return send(405, { error: 'method_not_allowed', message: `${method} ${path}` });
  if (path === '/v1/rfqs') return listRfqs(ctx, call);
  const vendors = vendorPath(path);
  if (vendors) return listVendors(ctx, call, vendors);
  const qm = /^\/v1\/quotations\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (qm) return listQuotations(ctx, call, qm[1]!, qm[2]);
  return send(404, { error: 'not_found', message: `no such endpoint: ${path}` });
}

/** The operation a call is counted under in the stats. */
function operationOf(method: string, path: string, docsDetail: boolean): string {
  return path === '/v1/rfqs'
    ? method === 'POST'
      ? 'createRfq'
      : 'listRfqs'
    : path.startsWith('/v1/quotations/')
      ? 'listQuotations'
      : vendorPath(path)
        ? 'listVendors'
        : docsDetail
          ? method === 'PUT'
            ? 'editRfq'
            : 'getRfq'
          : 'other';
}

/** The caller's company; undefined once refused (401 unknown token, 403 suspended account). */
function authenticate(ctx: ApiContext, authorization: string | undefined, send: Send): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const token = m?.[1];
  const company = token !== undefined ? ctx.accounts[token] : undefined;
  if (company === undefined) {
    send(401, { error: 'unauthorized', message: 'missing or unknown bearer token' });
    return undefined;
  }
  if (token !== undefined && ctx.disabled.has(token)) {
    send(403, { error: 'forbidden', message: 'account suspended' });
    return undefined;
  }
  return company;
}

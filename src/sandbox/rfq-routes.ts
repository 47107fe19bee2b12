/**
 * The sandbox's RFQ endpoints: create (POST /v1/rfqs, with the commit-then-fail and fail-before-commit faults;
 * stored as the service's behaviour rewrites it), list (GET /v1/rfqs, filter per dialect, links/meta pagination and what the lists show per
 * behaviour: list-view.ts) and, in the docs dialect, detail and header edit (GET/PUT /v1/rfqs/{id}).
 */
import { SandboxError } from '../core/index.ts';
import type { ApiCall, ApiContext } from './api-call.ts';
import { withBrokenRfqFields } from './broken-fields.ts';
import { readBody } from './http-io.ts';
import { renderRfqLegacy } from './legacy-shapes.ts';
import { listPage, requestedOffset, withoutOmitted } from './list-view.ts';
import { renderRfq, STATUS_TEXT_FILTER } from './render.ts';
import { asStored } from './stored-form.ts';
import { RFQ_STATES, type RfqState, type StoredRfq } from './store.ts';
import { wireCreateRfqSchema, wireEditRfqSchema } from './wire-schemas.ts';

export async function createRfq(ctx: ApiContext, call: ApiCall): Promise<void> {
  const { send } = call;
  let body: unknown;
  try {
    body = JSON.parse(await readBody(call.req));
  } catch (err) {
    if (err instanceof SandboxError) return send(err.status, { error: 'payload_too_large', message: err.message });
    return send(400, { error: 'bad_request', message: 'body is not valid JSON' });
  }
  const parsed = wireCreateRfqSchema.safeParse(body);
  if (!parsed.success) {
    return send(400, {
      error: 'validation_failed',
      message: 'the RFQ is invalid',
      issues: parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  if (ctx.faults.failBeforeCommit()) return send(502, { error: 'bad_gateway', message: 'upstream connection closed' });
  const rfq = ctx.store.create(call.company, asStored(parsed.data, ctx.behaviour()));
  ctx.calls.rfqCreated();
  const lost = ctx.faults.commitThenFail();
  if (lost) {
    ctx.calls.commitFailed();
    if (lost.mode === '502') return send(502, { error: 'bad_gateway', message: 'upstream connection closed' });
    ctx.calls.count(call.op, lost.mode);
    if (lost.mode === 'stall') await ctx.delays.wait(lost.stallMs);
    call.req.socket.destroy();
    return;
  }
  return send(201, { rfq: { _id: rfq._id } });
}

/** GET or PUT /v1/rfqs/{rawId} (docs dialect): only the caller's own RFQs exist. */
export async function rfqDetail(ctx: ApiContext, call: ApiCall, rawId: string): Promise<void> {
  const { send, method } = call;
  const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
  const found = Number.isSafeInteger(id) ? ctx.store.get(id) : undefined;
  if (!found || found.company !== call.company) return send(404, { error: 'not_found', message: `no RFQ ${rawId}` });
  if (method === 'PUT') return editRfq(ctx, call, id);
  if (method !== 'GET') return send(405, { error: 'method_not_allowed', message: `${method} ${call.path}` });
  if (ctx.faults.invalidJson()) return call.sendBroken();
  const rendered = renderListed(ctx, found, false, false);
  return send(200, { rfq: withBrokenRfqFields(found, { ...rendered, status: found.state }) });
}

/** An RFQ in the sandbox's shapes (the interface's, or the older documentation's), with its broken fields. */
function renderListed(ctx: ApiContext, r: StoredRfq, breakSchema: boolean, echo: boolean): Record<string, unknown> {
  const rendered = ctx.shapes === 'legacy' ? renderRfqLegacy(r, breakSchema, echo) : renderRfq(r, breakSchema, echo);
  return withBrokenRfqFields(r, rendered);
}

async function editRfq(ctx: ApiContext, call: ApiCall, id: number): Promise<void> {
  const { send } = call;
  let body: unknown;
  try {
    body = JSON.parse(await readBody(call.req));
  } catch {
    return send(400, { error: 'bad_request', message: 'body is not valid JSON' });
  }
  const parsed = wireEditRfqSchema.safeParse(body);
  if (!parsed.success)
    return send(400, {
      error: 'validation_failed',
      message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
  ctx.store.edit(id, call.company, parsed.data);
  return send(201, { rfq: { _id: id } });
}

export function listRfqs(ctx: ApiContext, call: ApiCall): void {
  const { send, url } = call;
  const { docs } = ctx;
  const asked = url.searchParams.get('status');
  // docs: only the capitalised values filter; any other value is ignored (the whole account, as a filter the
  // service does not recognise may be)
  const docsState = asked !== null && docs ? RFQ_STATES.find((st) => STATUS_TEXT_FILTER(st) === asked) : undefined;
  const status = docs ? (docsState ?? null) : asked;
  // without a filter: every RFQ of the account (the real service documents it)
  if (status !== null && !RFQ_STATES.includes(status as RfqState)) {
    return send(400, { error: 'bad_request', message: 'status must be one of open, closed, cancelled, completed' });
  }
  const offset = requestedOffset(url, ctx.pageSize);
  if (offset === undefined)
    return send(400, { error: 'bad_request', message: 'page must be a positive integer (or cursor one we gave)' });
  const all =
    status === null ? ctx.store.listAllFor(call.company) : ctx.store.listFor(call.company, status as RfqState);
  const b = ctx.behaviour();
  const page = listPage(all, b, Date.now(), offset, ctx.pageSize);
  const linkBase = `${ctx.linksOrigin ?? `http://${call.req.headers.host ?? 'localhost'}`}${ctx.prefix}/v1/rfqs?${asked === null ? '' : `status=${encodeURIComponent(asked)}&`}`;
  if (ctx.faults.invalidJson()) return call.sendBroken();
  return send(200, {
    rfqs: page.items.map((r) => withoutOmitted(renderListed(ctx, r, ctx.faults.schemaBreak(), !docs), b)),
    links: {
      next: page.next !== undefined ? `${linkBase}${page.next}` : null,
      ...(page.last !== undefined ? { last: `${linkBase}${page.last}` } : {}),
    },
    meta: { total: page.total },
  });
}

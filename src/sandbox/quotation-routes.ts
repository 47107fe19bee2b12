/**
 * The sandbox's quotation endpoint: GET /v1/quotations/{rfqId}[/{quotationKey}], with the `status=success` filter
 * (the winner only) and a `fields` selection, as the spec shows it; in the legacy shapes, as the older
 * documentation shows it (legacy-shapes.ts: keyed by quotation key, `sup_id` always kept).
 */
import type { ApiCall, ApiContext } from './api-call.ts';
import { withBrokenQuotationFields } from './broken-fields.ts';
import { renderQuotationsLegacy } from './legacy-shapes.ts';
import { pick, renderQuotation } from './render.ts';

export function listQuotations(ctx: ApiContext, call: ApiCall, rawId: string, rawKey: string | undefined): void {
  const { send, url } = call;
  const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
  const rfq = Number.isSafeInteger(id) ? ctx.store.get(id) : undefined;
  if (!rfq || rfq.company !== call.company) return send(404, { error: 'not_found', message: `no RFQ ${rawId}` });
  const statusParam = url.searchParams.get('status');
  if (statusParam !== null && statusParam !== 'success')
    return send(400, { error: 'bad_request', message: 'status must be success' });
  let list = rfq.quotations;
  if (rawKey !== undefined) {
    const key = decodeURIComponent(rawKey);
    list = list.filter((q) => String(q.quotation_key) === key);
    if (list.length === 0) return send(404, { error: 'not_found', message: `no quotation ${key} on RFQ ${rfq._id}` });
  }
  if (statusParam === 'success')
    list = list.filter((q) => rfq.winner !== undefined && String(q.quotation_key) === rfq.winner);
  const fieldsParam = url.searchParams.get('fields');
  const fields = fieldsParam
    ? fieldsParam
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : undefined;
  if (ctx.faults.invalidJson()) return call.sendBroken();
  if (ctx.shapes === 'legacy') {
    const keep = fields ? [...fields, 'sup_id'] : undefined;
    const rendered = renderQuotationsLegacy(
      rfq._id,
      list,
      () => ctx.faults.schemaBreak(),
      (o) => pick(o, keep),
    );
    const out =
      list.length === 0
        ? rendered
        : Object.fromEntries(
            Object.entries(rendered).map(([k, v]) => [
              k,
              withBrokenQuotationFields(rfq, k, v as Record<string, unknown>),
            ]),
          );
    return send(200, out);
  }
  return send(200, {
    rfq: { id: rfq._id },
    quotations: list.map((q) =>
      pick(
        withBrokenQuotationFields(rfq, String(q.quotation_key), renderQuotation(q, ctx.faults.schemaBreak())),
        fields,
      ),
    ),
  });
}

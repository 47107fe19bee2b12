/**
 * How the sandbox renders its RFQs and quotations on the wire, as the spec shows them (lines as a map of string
 * numbers, prices as strings), including the fault that breaks a field's type.
 */
import { Decimal } from 'decimal.js';
import { STATUS_TEXT, type RfqState, type StoredQuotation, type StoredRfq } from './store.ts';

/** The docs dialect's filter values: `Open`, `Closed`, ... */
export const STATUS_TEXT_FILTER = (s: RfqState) => s.charAt(0).toUpperCase() + s.slice(1);

/** The lines as the lists show them: as posted, or (a test's fault) reversed or without the first one. */
function listedLines(r: StoredRfq): StoredRfq['lines'] {
  if (r.listedLines === 'reorder') return [...r.lines].reverse();
  if (r.listedLines === 'drop') return r.lines.slice(1);
  return r.lines;
}

export function renderRfq(r: StoredRfq, breakSchema: boolean, echoExternalId: boolean): Record<string, unknown> {
  const lines: Record<string, unknown> = {};
  listedLines(r).forEach((l, i) => {
    const each =
      l.estimated_price !== undefined && l.qty > 0
        ? new Decimal(l.estimated_price).div(l.qty).toDecimalPlaces(2).toFixed(2)
        : undefined;
    lines[String(i)] = {
      line_id: l.line_id,
      product_name: l.product_name,
      specification: l.specification ?? '',
      uom: l.uom ?? '',
      qty: breakSchema && i === 0 ? 'lots' : String(l.qty),
      ...(l.estimated_price !== undefined ? { estimated_price: String(l.estimated_price) } : {}),
      ...(each !== undefined ? { each_price: each } : {}),
      status: l.status,
      ...(l.external_id !== undefined && echoExternalId ? { external_id: l.external_id } : {}),
      docs: l.docs,
    };
  });
  return {
    _id: r._id,
    title: r.title,
    description: r.description ?? '',
    rfq_no: r.rfq_no,
    comp_name: r.company,
    rfq_date: String(r.rfq_date),
    due_date: r.due_date,
    ...(r.required_date !== undefined ? { required_date: r.required_date } : {}),
    rfq_type: r.rfq_type,
    ...(r.rfq_category !== undefined ? { rfq_category: r.rfq_category } : {}),
    ...(r.rfq_location !== undefined ? { rfq_location: r.rfq_location } : {}),
    status: STATUS_TEXT[r.state],
    version: r.version,
    lines,
  };
}

export function renderQuotation(q: StoredQuotation, breakSchema: boolean): Record<string, unknown> {
  return {
    quotation_key: q.quotation_key,
    sup_name: q.sup_name,
    revision_no: breakSchema ? 'latest' : q.revision_no,
    quotation_date: String(q.quotation_date),
    notes: q.notes ?? '',
    quotation_detail: structuredClone(q.detail),
    quotation_attachment: q.attachments,
    ...(q.status !== undefined ? { status: q.status } : {}),
  };
}

export function pick(obj: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return obj;
  return Object.fromEntries(Object.entries(obj).filter(([k]) => fields.includes(k)));
}

/** The create request posted for a requisition (POST /v1/rfqs): one place, for the creator, its hashes and reports. */
import type { Requisition } from '../core/index.ts';
import type { CreateRfqRequest } from '../sourcing/index.ts';

export function toCreateRfqRequest(r: Requisition): CreateRfqRequest {
  return {
    title: r.title,
    due_date: String(r.due_date),
    ...(r.required_date !== undefined ? { required_date: String(r.required_date) } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    rfq_type: r.rfq_type,
    ...(r.rfq_category !== undefined ? { rfq_category: r.rfq_category } : {}),
    ...(r.rfq_location !== undefined ? { rfq_location: r.rfq_location } : {}),
    lines: r.lines.map((l) => ({
      product_name: l.product_name,
      ...(l.specification !== undefined ? { specification: l.specification } : {}),
      ...(l.uom !== undefined ? { uom: l.uom } : {}),
      qty: l.qty,
      ...(l.estimated_price !== undefined ? { estimated_price: l.estimated_price } : {}),
      external_id: l.external_id,
    })),
  };
}

/**
 * What the sandbox accepts, written from the interface (docs/architecture.md#the-interface: the RFQ and line fields,
 * the create call) and, for the edit call, from the real service's public documentation (PUT /v1/rfqs/{id}: title,
 * due_date, required_date, description).
 * Deliberately NOT the client's schemas (src/sourcing/schemas.ts): when the client drifts from the interface,
 * the sandbox refuses its requests and a test fails.
 * The maxima are the service's limits as the sandbox emulates them (the interface shows none).
 */
import { z } from 'zod';

// Deliberately a copy of src/sourcing/limits.ts, not an import of it: the sandbox stands for the service.
export const SANDBOX_LIMITS = {
  title: 500,
  description: 20_000,
  rfq_category: 200,
  rfq_location: 200,
  product_name: 500,
  specification: 5_000,
  uom: 50,
  external_id: 200,
  lines: 1_000,
} as const;

const L = SANDBOX_LIMITS;
/** Unix time in ms as a string of digits (2.1). */
const unixMs = z.string().regex(/^\d+$/, 'Unix time in ms as a string of digits');

/** 2.2: a line as sent on creation. */
export const wireLineSchema = z.strictObject({
  product_name: z.string().trim().min(1).max(L.product_name),
  specification: z.string().max(L.specification).optional(),
  uom: z.string().max(L.uom).optional(),
  qty: z.number().int().positive(),
  estimated_price: z.number().int().nonnegative().optional(),
  external_id: z.string().min(1).max(L.external_id).optional(),
});

/** 4.1: the body of POST /v1/rfqs. */
export const wireCreateRfqSchema = z.strictObject({
  title: z.string().trim().min(1).max(L.title),
  due_date: unixMs,
  required_date: unixMs.optional(),
  description: z.string().max(L.description).optional(),
  rfq_type: z.enum(['Public', 'Private']),
  rfq_category: z.string().max(L.rfq_category).optional(),
  rfq_location: z.string().max(L.rfq_location).optional(),
  lines: z.array(wireLineSchema).min(1).max(L.lines),
});

/** PUT /v1/rfqs/{id} (docs dialect): the header fields, at least one. */
export const wireEditRfqSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(L.title).optional(),
    due_date: unixMs.optional(),
    required_date: unixMs.optional(),
    description: z.string().max(L.description).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

export type WireCreateRfq = z.infer<typeof wireCreateRfqSchema>;
export type WireEditRfq = z.infer<typeof wireEditRfqSchema>;

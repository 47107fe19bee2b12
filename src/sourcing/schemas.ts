/**
 * zod schemas of the sourcing service's wire formats, used by the client to read answers and check what it sends.
 * The sandbox checks what it receives with its own schemas (src/sandbox/wire-schemas.ts), so a drift shows.
 *
 * Requests are strict (we control them). Answers are tolerant where the interface is loose
 * (docs/architecture.md#where-the-interface-is-silent): `lines`
 * as a map keyed "0","1",... or an array; numbers as strings; `quotation_key` int or `comp_<n>`; `quotation_detail`
 * as a map or an array; dates in every form of wire-dates.ts; documents, attachments and the `invitation` map as
 * arrays or "0"-keyed objects (wire-keyed-lists.ts); quotation statuses `success` / `unsuccess` besides `qualified`
 * / `not qualified`. Money comes out as a decimal string, never a binary float. A field that still breaks its
 * schema is left out of its record and named (field-tolerant-parse.ts), unless it is the record's identity.
 */
import { z } from 'zod';
import type { ListedLine, ListedRfq, Quotation, QuotationLineDetail } from './types.ts';
import { MAX_LINES_PER_RFQ, REQUEST_TEXT_LIMITS as L } from './limits.ts';
import { wireDate } from './wire-dates.ts';
import { documentList, invitationList } from './wire-keyed-lists.ts';

// ---------------------------------------------------------------- scalars

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;

/** Unix ms as a string of digits (what the service sends and takes). */
export const timestampString = z.string().regex(DIGITS, 'expected Unix time in ms as a string of digits');

/** Integer, or a string of digits holding one. */
export const looseInt = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'expected an integer')
      .transform((s) => Number(s)),
  ])
  .pipe(z.number().int().refine(Number.isSafeInteger, 'integer out of range'));

/** A number or a numeric string, normalised to a decimal string (no float arithmetic on it). */
export const looseDecimal = z.union([
  z
    .number()
    .refine(Number.isFinite, 'expected a finite number')
    .transform((n) => String(n)),
  z.string().trim().regex(DECIMAL, 'expected a decimal number'),
]);

// ---------------------------------------------------------------- POST /v1/rfqs (strict)

export const createRfqLineSchema = z.strictObject({
  product_name: z.string().trim().min(1).max(L.product_name),
  specification: z.string().max(L.specification).optional(),
  uom: z.string().max(L.uom).optional(),
  qty: z.number().int().positive(),
  estimated_price: z.number().int().nonnegative().optional(),
  external_id: z.string().min(1).max(L.external_id),
});

export const createRfqRequestSchema = z.strictObject({
  title: z.string().trim().min(1).max(L.title),
  due_date: timestampString,
  required_date: timestampString.optional(),
  description: z.string().max(L.description).optional(),
  rfq_type: z.enum(['Public', 'Private']),
  rfq_category: z.string().max(L.rfq_category).optional(),
  rfq_location: z.string().max(L.rfq_location).optional(),
  lines: z.array(createRfqLineSchema).min(1).max(MAX_LINES_PER_RFQ),
});

export const createRfqResponseSchema = z.object({
  rfq: z.object({ _id: looseInt.pipe(z.number().int().positive()) }),
});

/** PUT /v1/rfqs/{id}: the header fields the edit call takes (at least one). */
export const editRfqRequestSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(L.title).optional(),
    due_date: timestampString.optional(),
    required_date: timestampString.optional(),
    description: z.string().max(L.description).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

// ---------------------------------------------------------------- GET /v1/rfqs (tolerant)

const optionalString = z
  .string()
  .optional()
  .nullable()
  .transform((v) => v ?? undefined);

export const listedLineSchema = z.looseObject({
  line_id: z.union([
    z.string().min(1),
    z
      .number()
      .int()
      .transform((n) => String(n)),
  ]),
  product_name: optionalString,
  specification: optionalString,
  uom: optionalString,
  qty: looseInt.pipe(z.number().int().nonnegative()).optional(),
  estimated_price: looseDecimal.optional(),
  each_price: looseDecimal.optional().nullable(),
  status: optionalString,
  external_id: optionalString,
  docs: z.unknown().optional(),
});

/** `lines` as the spec's map keyed by position, or as an array. */
export const listedLinesSchema = z.union([
  z.array(listedLineSchema),
  z.record(z.string().regex(DIGITS, 'line keys must be positions "0","1",...'), listedLineSchema),
]);

export const listedRfqSchema = z.looseObject({
  _id: looseInt.pipe(z.number().int().positive()),
  title: optionalString,
  rfq_no: looseInt.optional(),
  comp_name: optionalString,
  status: optionalString,
  version: looseInt.optional(),
  rfq_date: wireDate,
  due_date: wireDate,
  required_date: wireDate,
  description: optionalString,
  rfq_type: optionalString,
  rfq_category: optionalString,
  rfq_location: optionalString,
  lines: listedLinesSchema.optional().default([]),
  invitation: invitationList,
});

/** The parts of a listed RFQ without which it is not this RFQ: its `_id`, its lines and their ids. */
export function isListedRfqIdentity(path: readonly string[]): boolean {
  if (path[0] === '_id') return true;
  if (path[0] !== 'lines') return false;
  return path.length <= 2 || path[2] === 'line_id' || path[2] === 'external_id';
}

const linkSchema = z.string().nullable().optional();
export const rfqListEnvelopeSchema = z.looseObject({
  rfqs: z.array(z.unknown()),
  links: z.looseObject({ next: linkSchema, last: linkSchema }).nullable().optional(),
  meta: z.looseObject({ total: looseInt.optional() }).nullable().optional(),
});

/** GET /v1/rfqs/{id}: `{ rfq: {...} }` (the record is checked on its own, as a listed one). */
export const rfqDetailEnvelopeSchema = z.looseObject({ rfq: z.unknown() });

export function toListedRfq(r: z.infer<typeof listedRfqSchema>): ListedRfq {
  const entries: Array<[number, z.infer<typeof listedLineSchema>]> = Array.isArray(r.lines)
    ? r.lines.map((l, i) => [i, l])
    : Object.entries(r.lines).map(([k, l]) => [Number(k), l]);
  entries.sort((a, b) => a[0] - b[0]);
  const lines: ListedLine[] = entries.map(([position, l]) => ({
    position,
    line_id: l.line_id,
    product_name: l.product_name,
    specification: l.specification,
    uom: l.uom,
    qty: l.qty,
    estimated_price: l.estimated_price,
    each_price: l.each_price ?? undefined,
    status: l.status,
    external_id: l.external_id,
    docs: l.docs ?? {},
  }));
  return {
    _id: r._id,
    title: r.title,
    rfq_no: r.rfq_no,
    comp_name: r.comp_name,
    status: r.status,
    version: r.version,
    rfq_date: r.rfq_date,
    due_date: r.due_date,
    required_date: r.required_date ?? undefined,
    description: r.description,
    rfq_type: r.rfq_type,
    rfq_category: r.rfq_category,
    rfq_location: r.rfq_location,
    lines,
    ...(r.invitation.length > 0 ? { invitations: r.invitation } : {}),
  };
}

// ---------------------------------------------------------------- GET /v1/quotations/<rfq_id>[/<key>] (tolerant)

/** Integer or `comp_<n>` on the wire; an opaque string for us. */
export const quotationKeySchema = z.union([
  z
    .number()
    .int()
    .transform((n) => String(n)),
  z.string().trim().min(1).max(200),
]);

/** A price: decimal string or number; empty or null means the supplier left the line unpriced. */
const priceSchema = z
  .union([z.null(), z.literal(''), looseDecimal])
  .transform((v) => (v === null || v === '' ? null : v));
const detailEntrySchema = z.looseObject({
  price: priceSchema.optional().transform((v) => v ?? null),
  docs: documentList,
});
export const quotationDetailSchema = z.union([
  z.array(
    detailEntrySchema.extend({
      line_id: z.union([
        z.string().min(1),
        z
          .number()
          .int()
          .transform((n) => String(n)),
      ]),
    }),
  ),
  z.record(z.string().min(1), detailEntrySchema),
]);

/**
 * Quotation statuses: the interface's `qualified` / `not qualified`, and the older `success` / `unsuccess` read as
 * qualified / not qualified (the reading and why: docs/operations.md#older-shapes-of-the-services-records). An empty status is
 * no decision yet.
 */
const QUOTATION_STATUS: Readonly<Record<string, Pick<Quotation, 'status' | 'statusWord'>>> = {
  qualified: { status: 'qualified' },
  'not qualified': { status: 'not qualified' },
  success: { status: 'qualified', statusWord: 'success' },
  unsuccess: { status: 'not qualified', statusWord: 'unsuccess' },
};
const quotationStatusSchema = z
  .string()
  .transform((s) => s.trim().toLowerCase().replace(/\s+/g, ' '))
  .refine((s) => s === '' || s in QUOTATION_STATUS, 'expected qualified, not qualified, success or unsuccess')
  .transform((s) => (s === '' ? undefined : QUOTATION_STATUS[s]))
  .optional()
  .nullable();

export const quotationSchema = z.looseObject({
  quotation_key: quotationKeySchema,
  sup_name: optionalString,
  revision_no: looseInt.optional(),
  quotation_date: wireDate,
  notes: optionalString,
  quotation_detail: quotationDetailSchema.optional().nullable(),
  quotation_attachment: documentList,
  status: quotationStatusSchema,
});

export const quotationListEnvelopeSchema = z.looseObject({
  rfq: z.looseObject({ id: looseInt.optional() }).optional().nullable(),
  /** An array (the interface), or an object keyed by quotation key (the older example's keying). */
  quotations: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  /** Not in the spec: tolerated when one quotation is fetched by key. */
  quotation: z.unknown().optional(),
});

export function toQuotation(q: z.infer<typeof quotationSchema>): Quotation {
  const raw = q.quotation_detail ?? [];
  const detail: QuotationLineDetail[] = Array.isArray(raw)
    ? raw.map((d) => ({ line_id: d.line_id, price: d.price, docs: d.docs }))
    : Object.entries(raw).map(([line_id, d]) => ({ line_id, price: d.price, docs: d.docs }));
  return {
    quotation_key: q.quotation_key,
    sup_name: q.sup_name,
    revision_no: q.revision_no,
    quotation_date: q.quotation_date,
    notes: q.notes,
    detail,
    attachments: q.quotation_attachment,
    status: q.status?.status,
    ...(q.status?.statusWord ? { statusWord: q.status.statusWord } : {}),
  };
}

/** First issue of a zod error as `field` (dotted path) and `reason`. */
export function firstIssue(err: z.ZodError, prefix = ''): { field: string; reason: string } {
  const issue = deepestIssue(err.issues);
  const path = issue ? issue.path.map(String).join('.') : '';
  const field = [prefix, path].filter(Boolean).join('.') || '(body)';
  return { field, reason: issue?.message ?? 'invalid' };
}

/** Union failures nest the real cause; dig it out so the message names the leaf field. */
function deepestIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const first = issues[0];
  if (!first) return undefined;
  if (first.code === 'invalid_union' && first.errors.length > 0) {
    // Prefer the branch that got furthest (longest path), it is the shape the sender meant.
    let best: z.core.$ZodIssue | undefined;
    for (const branch of first.errors) {
      const inner = deepestIssue(branch);
      if (inner && (!best || inner.path.length > best.path.length)) best = inner;
    }
    if (best) return { ...best, path: [...first.path, ...best.path] };
  }
  return first;
}

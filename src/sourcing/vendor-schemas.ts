/**
 * zod schemas of the account's vendor directory as the real service documents it (ralese/docs `vendor.rst`,
 * `vendor_category.rst`; the interface we were given does not show it): `{ vendors: [...] }`, each vendor with
 * `_id`, `sup_name`, `sup_type`, `contact_person`, `sup_email`, `sup_phone`, `categories`, `comp_srl`.
 * Tolerant where the documentation is loose: `categories` an array ("Array" in one table) or a `"0"`-keyed object
 * (both examples), `vendors` an array or a `"0"`-keyed object, ids and phone numbers as numbers or strings, the
 * envelope with or without `links`/`meta` (the pages are followed when they are given), or a bare array.
 */
import { z } from 'zod';
import type { Vendor } from './vendor-types.ts';

const text = z
  .union([z.string(), z.number().transform((n) => String(n))])
  .optional()
  .nullable()
  .transform((v) => (v === undefined || v === null ? undefined : v.trim() || undefined));

/** An array, a `"0"`-keyed object (in key order), or one category as a string; empty names are dropped. */
const categoriesSchema = z
  .union([
    z.array(z.string()),
    z.record(z.string(), z.string()),
    z.string().transform((s) => [s]),
    z.null().transform(() => []),
  ])
  .optional()
  .transform((v): string[] => {
    if (v === undefined) return [];
    const list = Array.isArray(v)
      ? v
      : Object.entries(v)
          .sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
          .map(([, c]) => c);
    return [...new Set(list.map((c) => c.trim()).filter(Boolean))];
  });

export const vendorSchema = z.looseObject({
  _id: z.union([
    z
      .number()
      .int()
      .transform((n) => String(n)),
    z.string().trim().min(1),
  ]),
  sup_name: text,
  sup_type: text,
  contact_person: text,
  sup_email: text,
  sup_phone: text,
  categories: categoriesSchema,
  comp_srl: text,
});

const linkSchema = z.string().nullable().optional();

/** The page envelope: `vendors` as an array or a `"0"`-keyed object; a bare array is a page of its own. */
export const vendorListEnvelopeSchema = z.union([
  z.array(z.unknown()).transform((vendors) => ({ vendors, links: undefined, meta: undefined })),
  z.looseObject({
    vendors: z.union([
      z.array(z.unknown()),
      z.record(z.string(), z.unknown()).transform((m) =>
        Object.entries(m)
          .sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
          .map(([, v]) => v),
      ),
    ]),
    links: z.looseObject({ next: linkSchema, last: linkSchema }).nullable().optional(),
    meta: z.looseObject({ total: z.unknown().optional() }).nullable().optional(),
  }),
]);

export function toVendor(v: z.infer<typeof vendorSchema>): Vendor {
  return {
    id: v._id,
    name: v.sup_name ?? '',
    ...(v.sup_type ? { type: v.sup_type } : {}),
    ...(v.contact_person ? { contact: v.contact_person } : {}),
    ...(v.sup_email ? { email: v.sup_email } : {}),
    ...(v.sup_phone ? { phone: v.sup_phone } : {}),
    categories: v.categories,
  };
}

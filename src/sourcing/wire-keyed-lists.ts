/**
 * Lists the service writes either as arrays or as objects keyed "0","1",... (PHP and MongoDB habits seen in the
 * real service's documentation): quotation documents and attachments, the `invitation` map of an RFQ. Both come
 * out as arrays in key order; `null`, an absent value and `{}` are an empty list.
 */
import { z } from 'zod';
import type { Invitation } from './types.ts';

const POSITION = /^\d+$/;

/** An array, or an object keyed by positions "0","1",... of `item`, as an array in position order. */
export function keyedList<T extends z.ZodType>(item: T) {
  return z
    .union([z.array(item), z.record(z.string().regex(POSITION, 'keys must be positions "0","1",...'), item), z.null()])
    .transform((v): Array<z.output<T>> => {
      if (v === null) return [];
      if (Array.isArray(v)) return v;
      return Object.entries(v)
        .sort((a, b) => Number(a[0]) - Number(b[0]))
        .map(([, x]) => x as z.output<T>);
    })
    .default([]);
}

/** Documents (`docs`, `quotation_attachment`): entries kept as given (`{name}`, `{file_name, doc_name}`, a URL). */
export const documentList = keyedList(z.unknown());

const text = z
  .union([z.string(), z.number().transform((n) => String(n))])
  .optional()
  .nullable()
  .transform((v) => (v === null || v === undefined || v === '' ? undefined : v));

/** One supplier invited to an RFQ, as the older list example shows it. */
const invitationSchema = z
  .looseObject({ sup_name: text, contact: text, sup_email: text, sup_id: text, status: text })
  .transform((i): Invitation => ({
    ...(i.sup_name !== undefined ? { sup_name: i.sup_name } : {}),
    ...(i.contact !== undefined ? { contact: i.contact } : {}),
    ...(i.sup_email !== undefined ? { sup_email: i.sup_email } : {}),
    ...(i.sup_id !== undefined ? { sup_id: i.sup_id } : {}),
    ...(i.status !== undefined ? { status: i.status } : {}),
  }));

export const invitationList = keyedList(invitationSchema);

/**
 * The final shape of a requisition line (line-validation's zod schema) checked by hand, for speed: zod's safeParse
 * was a tenth of every ingest's time. `plainlyValid` is true only when the schema accepts the line too; a line it
 * does not pass is then checked by zod, which names the issue as before. Keep the two in step.
 */
import { z } from 'zod';
import type { RequisitionLine } from '../core/index.ts';
import { REQUEST_TEXT_LIMITS as L } from '../sourcing/index.ts';

/** The final shape of a line: the first issue becomes the row's problem and the line is dropped. */
export const lineSchema = z.object({
  external_id: z.string().min(1).max(L.external_id),
  product_name: z.string().min(1).max(L.product_name),
  specification: z.string().max(L.specification).optional(),
  uom: z.string().max(L.uom).optional(),
  qty: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  estimated_price: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  row: z.number().int().positive(),
});

const textIn = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'string' && v.length >= min && v.length <= max;
const wholeFrom = (v: unknown, min: number): boolean => Number.isSafeInteger(v) && (v as number) >= min;

/** True only when lineSchema accepts `l` too (most lines); false sends the line to zod. */
export function plainlyValid(l: RequisitionLine): boolean {
  return (
    textIn(l.external_id, 1, L.external_id) &&
    textIn(l.product_name, 1, L.product_name) &&
    (l.specification === undefined || textIn(l.specification, 0, L.specification)) &&
    (l.uom === undefined || textIn(l.uom, 0, L.uom)) &&
    wholeFrom(l.qty, 1) &&
    (l.estimated_price === undefined || wholeFrom(l.estimated_price, 0)) &&
    wholeFrom(l.row, 1)
  );
}

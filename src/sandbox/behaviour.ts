/**
 * How the sandbox's lists and records behave, as real services do and the interface does not say
 * (docs/architecture.md#the-sandboxs-dialects). Off by default: the sandbox then shows a new RFQ in its lists the
 * instant it is stored, in _id order, fields exactly as posted. Set at start (SandboxOptions.behaviour) or through
 * the control API (PUT /_sandbox/behaviour); unlike the faults, it stays until changed.
 */
import { z } from 'zod';

export const behaviourSchema = z.strictObject({
  /** A stored RFQ shows in the lists only this long after it was stored (a search index, a read replica), ms. */
  listLagMs: z.number().int().nonnegative().optional(),
  /** Order of every list: `id` (oldest first, the default), `newest` (newest first), `due` (by due date, then _id). */
  listOrder: z.enum(['id', 'newest', 'due']).optional(),
  /** RFQs hidden from the lists (the `hide` control) are still counted in `meta.total`. */
  hiddenInTotal: z.boolean().optional(),
  /** `links.next` carries an opaque `cursor` instead of a page number, and `links.last` is not given. */
  cursorLinks: z.boolean().optional(),
  /** Fields the lists leave out of each record: the lines' `estimated_price`, or the `lines` altogether. */
  listOmits: z.array(z.enum(['estimated_price', 'lines'])).optional(),
  /**
   * What the service rewrites as it stores a create: `uom-case` (units upper-cased: "PKG" for "Pkg"), `spaces`
   * (runs of spaces in titles and product names collapsed, ends trimmed), `name-case` (product names upper-cased),
   * `external-id` (external_ids upper-cased and trimmed), `required-date` (a missing required_date set to the due
   * date).
   */
  stores: z.array(z.enum(['uom-case', 'spaces', 'name-case', 'external-id', 'required-date'])).optional(),
});

export type ServiceBehaviour = z.infer<typeof behaviourSchema>;

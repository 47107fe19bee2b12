/**
 * One RFQ as a list (or the detail call) gives it: read through its schema, its state taken from its label. A field
 * that breaks the schema is left out and named on the RFQ (`unreadable`), so the RFQ still counts for walks and
 * polls; only a broken identity (its `_id`, its lines and their ids) makes the whole record unreadable, reported
 * with its reason (each RFQ on its own: one bad record must not hide the rest of a page).
 */
import { InvalidResponseError } from '../../core/index.ts';
import { parseFieldTolerant } from '../field-tolerant-parse.ts';
import type { InvalidListedRfq } from '../port.ts';
import { isListedRfqIdentity, listedRfqSchema, toListedRfq } from '../schemas.ts';
import { stateOfLabel } from '../status-labels.ts';
import type { ListedRfq } from '../types.ts';

export function parseListedRfq(raw: unknown, index: number, page: number): ListedRfq | InvalidListedRfq {
  const r = parseFieldTolerant(listedRfqSchema, raw, isListedRfqIdentity);
  if (r.ok) {
    const rfq = toListedRfq(r.data);
    const labelState = stateOfLabel(rfq.status);
    return {
      ...rfq,
      ...(labelState ? { labelState } : {}),
      ...(r.unreadable.length > 0 ? { unreadable: r.unreadable } : {}),
    };
  }
  const id = listedRfqSchema.shape._id.safeParse((raw as { _id?: unknown } | null)?._id);
  const rfqId = id.success ? id.data : undefined;
  const field = rfqId === undefined ? `rfqs[${index}] (page ${page}).${r.field}` : r.field;
  const error = new InvalidResponseError({ operation: 'listRfqs', field, reason: r.reason, rfqId });
  const label = (raw as { status?: unknown } | null)?.status;
  const labelState = typeof label === 'string' ? stateOfLabel(label) : undefined;
  return { rfqId, page, index, field, reason: r.reason, ...(labelState ? { labelState } : {}), error };
}

/**
 * One RFQ as a list (or the detail call) gives it: read through its schema, its state taken from its label, or the
 * reason it breaks the schema (each RFQ on its own: one bad record must not hide the rest of a page).
 */
import { InvalidResponseError } from '../errors.ts';
import type { InvalidListedRfq } from './port.ts';
import { firstIssue, listedRfqSchema, toListedRfq } from './schemas.ts';
import { stateOfLabel } from './status-labels.ts';
import type { ListedRfq } from './types.ts';

export function parseListedRfq(raw: unknown, index: number, page: number): ListedRfq | InvalidListedRfq {
  const r = listedRfqSchema.safeParse(raw);
  if (r.success) {
    const rfq = toListedRfq(r.data);
    const labelState = stateOfLabel(rfq.status);
    return labelState ? { ...rfq, labelState } : rfq;
  }
  const id = listedRfqSchema.shape._id.safeParse((raw as { _id?: unknown } | null)?._id);
  const rfqId = id.success ? id.data : undefined;
  const issue = firstIssue(r.error);
  const field = rfqId === undefined ? `rfqs[${index}] (page ${page}).${issue.field}` : issue.field;
  const error = new InvalidResponseError({ operation: 'listRfqs', field, reason: issue.reason, rfqId });
  return { rfqId, page, index, field, reason: issue.reason, error };
}

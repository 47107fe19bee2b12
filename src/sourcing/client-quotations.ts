/**
 * Reading an RFQ's quotations (GET /v1/quotations/{rfqId}[/{quotationKey}]): the envelope checked (and that it is for
 * the RFQ asked), then each quotation on its own, a schema-breaking one left out and reported.
 */
import { InvalidResponseError } from '../errors.ts';
import { checkRfqId, invalidResponse, type ClientContext } from './client-context.ts';
import { firstIssue, quotationListEnvelopeSchema, quotationSchema, toQuotation } from './schemas.ts';
import type { Quotation, QuotationList } from './types.ts';

export interface ListQuotationsOptions {
  quotationKey?: string;
  status?: 'success';
  fields?: string[];
}

export async function listQuotations(
  c: ClientContext,
  rfqId: number,
  opts: ListQuotationsOptions = {},
): Promise<QuotationList> {
  checkRfqId('listQuotations', rfqId);
  const path = `/v1/quotations/${rfqId}${opts.quotationKey !== undefined ? `/${encodeURIComponent(opts.quotationKey)}` : ''}`;
  // quotation_key is always asked for: a quotation we cannot name is of no use to a comparison.
  const fields =
    opts.fields && opts.fields.length > 0 ? [...new Set(['quotation_key', ...opts.fields])].join(',') : undefined;
  const { json } = await c.transport.requestJson({
    operation: 'listQuotations',
    method: 'GET',
    path,
    query: { status: opts.status, fields },
  });
  const raws = rawQuotations(json, rfqId, opts.quotationKey);
  return parseQuotations(c, rfqId, raws);
}

/** The quotation records of an answer: its list, its single `quotation`, or (asked by key) the answer itself. */
function rawQuotations(json: unknown, rfqId: number, quotationKey: string | undefined): unknown[] {
  const env = quotationListEnvelopeSchema.safeParse(json);
  if (!env.success) throw invalidResponse('listQuotations', env.error, rfqId);
  const echoed = env.data.rfq?.id;
  if (echoed !== undefined && echoed !== rfqId) {
    throw new InvalidResponseError({
      operation: 'listQuotations',
      field: 'rfq.id',
      reason: `answer is for RFQ ${echoed}`,
      rfqId,
    });
  }
  if (env.data.quotations !== undefined) return env.data.quotations;
  if (env.data.quotation !== undefined && env.data.quotation !== null) return [env.data.quotation];
  if (quotationKey !== undefined && json && typeof json === 'object' && 'quotation_key' in json) return [json];
  throw new InvalidResponseError({ operation: 'listQuotations', field: 'quotations', reason: 'missing', rfqId });
}

/** Each quotation on its own: the valid ones read, a schema-breaking one left out, warned about and listed. */
function parseQuotations(c: ClientContext, rfqId: number, raws: unknown[]): QuotationList {
  const quotations: Quotation[] = [];
  const invalidList: QuotationList['invalid'] = [];
  raws.forEach((raw, index) => {
    const q = quotationSchema.safeParse(raw);
    if (q.success) {
      quotations.push(toQuotation(q.data));
      return;
    }
    const { field, reason } = firstIssue(q.error);
    const key = (raw as { quotation_key?: unknown } | null)?.quotation_key;
    const quotation_key = typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
    invalidList.push({ index, quotation_key, reason: `field ${field}: ${reason}` });
    c.logger.warn(
      { operation: 'listQuotations', rfqId, index, quotation_key, field, reason },
      'quotation breaks the schema; left out',
    );
  });
  return { rfqId, quotations, invalid: invalidList };
}

/**
 * Reading an RFQ's quotations (GET /v1/quotations/{rfqId}[/{quotationKey}]): the envelope checked (and that it is for
 * the RFQ asked), then each quotation on its own. A quotation whose key cannot be read is left out and reported; any
 * other field that breaks the schema is left out of its quotation and named on it (`unreadable`).
 *
 * Shapes read: `{rfq: {id}, quotations: [...]}` (the interface), `quotations` as an object keyed by quotation key,
 * and the older example's bare object keyed by quotation key (`{"1": {sup_id, ...}, "comp_38": {...}}`), whose
 * records carry `sup_id` instead of `quotation_key`: there the key is the object's key, never guessed from `sup_id`.
 */
import { InvalidResponseError } from '../../core/index.ts';
import { checkRfqId, invalidResponse, type ClientContext } from './context.ts';
import { parseFieldTolerant } from '../field-tolerant-parse.ts';
import { quotationListEnvelopeSchema, quotationSchema, toQuotation } from '../schemas.ts';
import type { Quotation, QuotationList } from '../types.ts';

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

/** A quotation record as answered, with the key it was filed under when the answer is keyed by quotation key. */
interface RawQuotation {
  raw: unknown;
  mapKey?: string;
}

/** The quotation records of an answer: its list, its single `quotation`, or (asked by key) the answer itself. */
function rawQuotations(json: unknown, rfqId: number, quotationKey: string | undefined): RawQuotation[] {
  const bare = bareKeyedQuotations(json);
  if (bare) return bare;
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
  const list = env.data.quotations;
  if (Array.isArray(list)) return list.map((raw) => ({ raw }));
  if (list !== undefined) return Object.entries(list).map(([mapKey, raw]) => ({ raw, mapKey }));
  if (env.data.quotation !== undefined && env.data.quotation !== null) return [{ raw: env.data.quotation }];
  if (quotationKey !== undefined && json && typeof json === 'object' && 'quotation_key' in json) return [{ raw: json }];
  throw new InvalidResponseError({ operation: 'listQuotations', field: 'quotations', reason: 'missing', rfqId });
}

/**
 * The older example's answer: no envelope, an object keyed by quotation key whose every value is a quotation
 * record (it carries `sup_id` or `quotation_key`). Anything else is not taken for it.
 */
function bareKeyedQuotations(json: unknown): RawQuotation[] | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const entries = Object.entries(json);
  if (entries.length === 0 || entries.some(([k]) => k === 'rfq' || k === 'quotations' || k === 'quotation'))
    return undefined;
  const isRecord = (v: unknown) =>
    !!v && typeof v === 'object' && !Array.isArray(v) && ('sup_id' in v || 'quotation_key' in v);
  if (!entries.every(([, v]) => isRecord(v))) return undefined;
  return entries.map(([mapKey, raw]) => ({ raw, mapKey }));
}

/** The record with the key it was filed under as its quotation_key (a different key of its own is a conflict). */
function withMapKey({ raw, mapKey }: RawQuotation): unknown {
  if (mapKey === undefined || !raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const own = (raw as { quotation_key?: unknown }).quotation_key;
  if (own === undefined || own === null) return { ...raw, quotation_key: mapKey };
  return String(own) === mapKey ? raw : { ...raw, quotation_key: { filedUnder: mapKey, own } };
}

const isQuotationIdentity = (path: readonly string[]) => path[0] === 'quotation_key';

/** Each quotation on its own: those with a readable key kept (bad fields left out and named), the others reported. */
function parseQuotations(c: ClientContext, rfqId: number, raws: RawQuotation[]): QuotationList {
  const quotations: Quotation[] = [];
  const invalidList: QuotationList['invalid'] = [];
  raws.forEach((entry, index) => {
    const q = parseFieldTolerant(quotationSchema, withMapKey(entry), isQuotationIdentity);
    if (q.ok) {
      const quotation = toQuotation(q.data);
      quotations.push(q.unreadable.length > 0 ? { ...quotation, unreadable: q.unreadable } : quotation);
      return;
    }
    const key = entry.mapKey ?? (entry.raw as { quotation_key?: unknown } | null)?.quotation_key;
    const quotation_key = typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
    const reason =
      entry.mapKey !== undefined && q.field === 'quotation_key'
        ? `filed under key ${entry.mapKey} but carries quotation_key ${JSON.stringify((entry.raw as { quotation_key?: unknown }).quotation_key)}`
        : q.reason;
    invalidList.push({ index, quotation_key, reason: `field ${q.field}: ${reason}` });
    // Debug only: the quotations job reports it (once per RFQ and quotation, with its tracking context).
    c.logger.debug(
      { operation: 'listQuotations', rfqId, index, quotation_key, field: q.field, reason },
      'quotation breaks the schema where its key is; left out',
    );
  });
  return { rfqId, quotations, invalid: invalidList };
}

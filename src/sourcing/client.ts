/**
 * Typed client of the sourcing service's three operations. HTTP, retries, time-outs and error mapping live in
 * transport.ts; this file only builds requests and reads answers through the zod schemas in schemas.ts.
 */
import { z } from 'zod';
import { InvalidResponseError, RfqSyncError } from '../errors.ts';
import { silentLogger, type Logger } from '../logger.ts';
import {
  createRfqRequestSchema,
  createRfqResponseSchema,
  firstIssue,
  listedRfqSchema,
  quotationListEnvelopeSchema,
  quotationSchema,
  rfqListEnvelopeSchema,
  toListedRfq,
  toQuotation,
} from './schemas.ts';
import { createTransport, paginate } from './transport.ts';
import type { CreateRfqRequest, ListedRfq, Quotation, QuotationList, RfqStatusFilter } from './types.ts';
import { RFQ_STATUSES } from './types.ts';

export interface SourcingClientOptions {
  /** May include a prefix, e.g. http://host/esourcing. */
  baseUrl: string;
  /** Called per request so a replaced token (file re-read) is picked up. */
  getToken: () => string;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  getRetries?: number;
  connections?: number;
  maxPages?: number;
  pageConcurrency?: number;
  /** Longest Retry-After honoured by waiting; longer ones throw RateLimitError. Default 30 s. */
  retryAfterCapMs?: number;
  /** First back-off step in ms (doubled per attempt, jittered). Default 250. */
  baseBackoffMs?: number;
  logger?: Logger;
  /** Metrics hook, called once per HTTP attempt. */
  onCall?: (c: { operation: string; status: number | 'error'; durationMs: number }) => void;
}

export interface SourcingClient {
  createRfq(body: CreateRfqRequest, opts?: { signal?: AbortSignal }): Promise<{ _id: number }>;
  /** Every RFQ of the account in that state, all pages (each `_id` once). */
  listRfqs(status: RfqStatusFilter): AsyncIterable<ListedRfq>;
  listRfqPages(status: RfqStatusFilter): AsyncIterable<{ page: number; rfqs: ListedRfq[]; total?: number }>;
  listQuotations(rfqId: number, opts?: { quotationKey?: string; status?: 'success'; fields?: string[] }): Promise<QuotationList>;
  close(): Promise<void>;
}

export function createSourcingClient(o: SourcingClientOptions): SourcingClient {
  const logger = o.logger ?? silentLogger;
  const transport = createTransport({ ...o, logger });
  const maxPages = o.maxPages ?? 1000;
  const pageConcurrency = Math.max(1, o.pageConcurrency ?? 4);
  const originWarning = { given: false };

  async function createRfq(body: CreateRfqRequest, opts: { signal?: AbortSignal } = {}): Promise<{ _id: number }> {
    const normalised = { ...body, rfq_type: normaliseRfqType(body.rfq_type) };
    const checked = createRfqRequestSchema.safeParse(normalised);
    if (!checked.success) {
      const { field, reason } = firstIssue(checked.error);
      throw new RfqSyncError('E_INVALID_REQUEST', 'data', `createRfq: request not sent: field ${field}: ${reason}`);
    }
    const { json } = await transport.requestJson({ operation: 'createRfq', method: 'POST', path: '/v1/rfqs', body: checked.data, signal: opts.signal });
    const parsed = createRfqResponseSchema.safeParse(json);
    if (!parsed.success) throw invalid('createRfq', parsed.error);
    return { _id: parsed.data.rfq._id };
  }

  async function* listRfqPages(status: RfqStatusFilter): AsyncGenerator<{ page: number; rfqs: ListedRfq[]; total?: number }> {
    const filter = String(status).toLowerCase() as RfqStatusFilter;
    if (!RFQ_STATUSES.includes(filter)) throw new RfqSyncError('E_INVALID_REQUEST', 'data', `listRfqs: unknown status filter ${String(status)}`);
    let total: number | undefined;
    const pages = paginate<ListedRfq[]>({
      operation: 'listRfqs',
      origin: transport.origin,
      maxPages,
      concurrency: pageConcurrency,
      logger,
      isEmpty: (items) => items.length === 0,
      originWarning,
      fetchPage: async (page) => {
        const { json } = await transport.requestJson({
          operation: 'listRfqs',
          method: 'GET',
          path: '/v1/rfqs',
          query: { status: filter, page: page === 1 ? undefined : page },
        });
        const env = rfqListEnvelopeSchema.safeParse(json);
        if (!env.success) throw invalid('listRfqs', env.error);
        if (page === 1) total = env.data.meta?.total;
        const rfqs = env.data.rfqs.map((raw, i) => parseListedRfq(raw, i, page));
        return { items: rfqs, next: env.data.links?.next, last: env.data.links?.last };
      },
    });
    for await (const { page, items } of pages) yield { page, rfqs: items, total };
  }

  async function* listRfqs(status: RfqStatusFilter): AsyncGenerator<ListedRfq> {
    // Offset pages can shift while read (an RFQ changes state): the same _id may show on two pages.
    const seen = new Set<number>();
    for await (const { rfqs } of listRfqPages(status)) {
      for (const r of rfqs) {
        if (seen.has(r._id)) continue;
        seen.add(r._id);
        yield r;
      }
    }
  }

  async function listQuotations(
    rfqId: number,
    opts: { quotationKey?: string; status?: 'success'; fields?: string[] } = {},
  ): Promise<QuotationList> {
    if (!Number.isSafeInteger(rfqId) || rfqId <= 0) throw new RfqSyncError('E_INVALID_REQUEST', 'data', `listQuotations: invalid RFQ id ${rfqId}`);
    const path = `/v1/quotations/${rfqId}${opts.quotationKey !== undefined ? `/${encodeURIComponent(opts.quotationKey)}` : ''}`;
    // quotation_key is always asked for: a quotation we cannot name is of no use to a comparison.
    const fields = opts.fields && opts.fields.length > 0 ? [...new Set(['quotation_key', ...opts.fields])].join(',') : undefined;
    const { json } = await transport.requestJson({
      operation: 'listQuotations',
      method: 'GET',
      path,
      query: { status: opts.status, fields },
    });
    const env = quotationListEnvelopeSchema.safeParse(json);
    if (!env.success) throw invalid('listQuotations', env.error, rfqId);
    const echoed = env.data.rfq?.id;
    if (echoed !== undefined && echoed !== rfqId) {
      throw new InvalidResponseError({ operation: 'listQuotations', field: 'rfq.id', reason: `answer is for RFQ ${echoed}`, rfqId });
    }
    let raws: unknown[];
    if (env.data.quotations !== undefined) raws = env.data.quotations;
    else if (env.data.quotation !== undefined && env.data.quotation !== null) raws = [env.data.quotation];
    else if (opts.quotationKey !== undefined && json && typeof json === 'object' && 'quotation_key' in json) raws = [json];
    else throw new InvalidResponseError({ operation: 'listQuotations', field: 'quotations', reason: 'missing', rfqId });

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
      logger.warn({ operation: 'listQuotations', rfqId, index, quotation_key, field, reason }, 'quotation breaks the schema; left out');
    });
    return { rfqId, quotations, invalid: invalidList };
  }

  return {
    createRfq,
    listRfqs,
    listRfqPages,
    listQuotations,
    close: () => transport.close(),
  };
}

/** `public`, `PUBLIC`... -> `Public` (design.md: accept any case, send Public/Private). */
export function normaliseRfqType(t: string): 'Public' | 'Private' {
  const v = String(t).trim().toLowerCase();
  if (v === 'public') return 'Public';
  if (v === 'private') return 'Private';
  return t as 'Public' | 'Private'; // the schema check names it
}

function parseListedRfq(raw: unknown, index: number, page: number): ListedRfq {
  const r = listedRfqSchema.safeParse(raw);
  if (r.success) return toListedRfq(r.data);
  const id = (raw as { _id?: unknown } | null)?._id;
  const rfqId = typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
  const { field, reason } = firstIssue(r.error);
  throw new InvalidResponseError({
    operation: 'listRfqs',
    field: rfqId === undefined ? `rfqs[${index}] (page ${page}).${field}` : field,
    reason,
    rfqId,
  });
}

function invalid(operation: string, err: z.ZodError, rfqId?: number): InvalidResponseError {
  const { field, reason } = firstIssue(err);
  return new InvalidResponseError({ operation, field, reason, rfqId });
}

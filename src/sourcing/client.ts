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
import { createTransport, paginate, type TransportOptions } from './transport.ts';
import type { CreateRfqRequest, ListedRfq, Quotation, QuotationList, RfqStatusFilter } from './types.ts';
import { RFQ_STATUSES } from './types.ts';

/**
 * The transport's options (base URL, which may include a prefix such as http://host/esourcing; the token, asked
 * per request so a replaced token file is picked up; time-outs, retries, rate-limit hooks), plus pagination.
 */
export interface SourcingClientOptions extends TransportOptions {
  /** Pages read at most per list (a guard against a service that never ends a list). Default 1000. */
  maxPages?: number;
  /** Pages fetched at once when `links.last` is known. Default 4. */
  pageConcurrency?: number;
}

/** One RFQ of a list page that breaks the schema (the page itself was fine). */
export interface InvalidListedRfq {
  /** Set when the RFQ's `_id` is readable: it is in the list it was found in, whatever else is wrong. */
  rfqId?: number;
  page: number;
  /** Position in the page's `rfqs`. */
  index: number;
  field: string;
  reason: string;
  error: InvalidResponseError;
}

export interface ListRfqsOptions {
  /**
   * Called for each RFQ of a page that breaks the schema; the valid RFQs of the page are still yielded. Without
   * it the first invalid RFQ throws its InvalidResponseError (for readers that need every RFQ of the list, such
   * as the reconcile search for an RFQ carrying our external_ids).
   */
  onInvalid?: (bad: InvalidListedRfq) => void;
  /**
   * Asks a failed page again (same page number) instead of ending the walk, on top of the transport's GET retries:
   * for readers that must read every page (the reconcile search), where even a 200 with a broken body is worth a
   * second try. `backoffMs(n)` is the wait before retry n (1-based); at most `attempts` retries per page.
   */
  pageRetry?: { attempts: number; retryable: (err: unknown) => boolean; backoffMs: (n: number) => number };
}

export interface RfqListPage {
  page: number;
  rfqs: ListedRfq[];
  /** RFQs of this page that break the schema; present only when there are some (and `onInvalid` was given). */
  invalid?: InvalidListedRfq[];
  total?: number;
}

export interface SourcingClient {
  /** `permitHeld`: the caller already took the rate permit for this call (no `beforeRequest`). */
  createRfq(body: CreateRfqRequest, opts?: { signal?: AbortSignal; permitHeld?: boolean }): Promise<{ _id: number }>;
  /**
   * Every RFQ of the account in that state, all pages (each `_id` once). A page whose envelope is broken throws
   * InvalidResponseError; one bad RFQ of a page goes to `onInvalid` (or throws without it).
   */
  listRfqs(status: RfqStatusFilter, opts?: ListRfqsOptions): AsyncIterable<ListedRfq>;
  listRfqPages(status: RfqStatusFilter, opts?: ListRfqsOptions): AsyncIterable<RfqListPage>;
  listQuotations(rfqId: number, opts?: { quotationKey?: string; status?: 'success'; fields?: string[] }): Promise<QuotationList>;
  close(): Promise<void>;
}

export function createSourcingClient(o: SourcingClientOptions): SourcingClient {
  const logger = o.logger ?? silentLogger;
  const transport = createTransport({ ...o, logger });
  const maxPages = o.maxPages ?? 1000;
  const pageConcurrency = Math.max(1, o.pageConcurrency ?? 4);
  const originWarning = { given: false };

  async function createRfq(body: CreateRfqRequest, opts: { signal?: AbortSignal; permitHeld?: boolean } = {}): Promise<{ _id: number }> {
    const normalised = { ...body, rfq_type: normaliseRfqType(body.rfq_type) };
    const checked = createRfqRequestSchema.safeParse(normalised);
    if (!checked.success) {
      const { field, reason } = firstIssue(checked.error);
      throw new RfqSyncError('E_INVALID_REQUEST', 'data', `createRfq: request not sent: field ${field}: ${reason}`);
    }
    const { json } = await transport.requestJson({ operation: 'createRfq', method: 'POST', path: '/v1/rfqs', body: checked.data, signal: opts.signal, permitHeld: opts.permitHeld });
    const parsed = createRfqResponseSchema.safeParse(json);
    if (!parsed.success) throw invalid('createRfq', parsed.error);
    return { _id: parsed.data.rfq._id };
  }

  async function* listRfqPages(status: RfqStatusFilter, opts: ListRfqsOptions = {}): AsyncGenerator<RfqListPage> {
    const filter = String(status).toLowerCase() as RfqStatusFilter;
    if (!RFQ_STATUSES.includes(filter)) throw new RfqSyncError('E_INVALID_REQUEST', 'data', `listRfqs: unknown status filter ${String(status)}`);
    let total: number | undefined;
    const pages = paginate<{ rfqs: ListedRfq[]; invalid: InvalidListedRfq[] }>({
      operation: 'listRfqs',
      origin: transport.origin,
      maxPages,
      concurrency: pageConcurrency,
      logger,
      isEmpty: (items) => items.rfqs.length === 0 && items.invalid.length === 0,
      originWarning,
      fetchPage: async (page) => {
        for (let n = 1; ; n++) {
          try {
            return await fetchPage(page);
          } catch (err) {
            const r = opts.pageRetry;
            if (!r || n > r.attempts || !r.retryable(err)) throw err;
            logger.debug({ operation: 'listRfqs', status: filter, page, retry: n, error: (err as Error).message }, 'list page failed; asking it again');
            await new Promise((resolve) => setTimeout(resolve, r.backoffMs(n)));
          }
        }
      },
    });
    /** One page of the list, read and checked (an envelope that breaks the schema throws InvalidResponseError). */
    async function fetchPage(page: number) {
      const { json } = await transport.requestJson({
        operation: 'listRfqs',
        method: 'GET',
        path: '/v1/rfqs',
        query: { status: filter, page: page === 1 ? undefined : page },
      });
      const env = rfqListEnvelopeSchema.safeParse(json);
      if (!env.success) throw invalid('listRfqs', env.error);
      if (page === 1) total = env.data.meta?.total;
      // Each RFQ on its own: one bad record must not hide the rest of the page.
      const rfqs: ListedRfq[] = [];
      const invalidRfqs: InvalidListedRfq[] = [];
      env.data.rfqs.forEach((raw, i) => {
        const r = parseListedRfq(raw, i, page);
        if ('error' in r) invalidRfqs.push(r);
        else rfqs.push(r);
      });
      return { items: { rfqs, invalid: invalidRfqs }, next: env.data.links?.next, last: env.data.links?.last };
    }
    // Reported in page order, as the pages are yielded (they may be fetched out of order).
    for await (const { page, items } of pages) {
      for (const bad of items.invalid) {
        if (!opts.onInvalid) throw bad.error;
        // Debug only: the caller reports it (the poll warns once per RFQ, with its tracking context).
        logger.debug(
          { operation: 'listRfqs', status: filter, rfqId: bad.rfqId, page, index: bad.index, field: bad.field, reason: bad.reason },
          'listed RFQ breaks the schema; reported apart',
        );
        opts.onInvalid(bad);
      }
      yield { page, rfqs: items.rfqs, ...(items.invalid.length > 0 ? { invalid: items.invalid } : {}), total };
    }
  }

  async function* listRfqs(status: RfqStatusFilter, opts: ListRfqsOptions = {}): AsyncGenerator<ListedRfq> {
    // Offset pages can shift while read (an RFQ changes state): the same _id may show on two pages.
    const seen = new Set<number>();
    const onInvalid = opts.onInvalid;
    const reportOnce = onInvalid
      ? (bad: InvalidListedRfq) => {
          if (bad.rfqId !== undefined) {
            if (seen.has(bad.rfqId)) return;
            seen.add(bad.rfqId);
          }
          onInvalid(bad);
        }
      : undefined;
    for await (const { rfqs } of listRfqPages(status, { ...opts, onInvalid: reportOnce })) {
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

function parseListedRfq(raw: unknown, index: number, page: number): ListedRfq | InvalidListedRfq {
  const r = listedRfqSchema.safeParse(raw);
  if (r.success) return toListedRfq(r.data);
  const id = listedRfqSchema.shape._id.safeParse((raw as { _id?: unknown } | null)?._id);
  const rfqId = id.success ? id.data : undefined;
  const issue = firstIssue(r.error);
  const field = rfqId === undefined ? `rfqs[${index}] (page ${page}).${issue.field}` : issue.field;
  const error = new InvalidResponseError({ operation: 'listRfqs', field, reason: issue.reason, rfqId });
  return { rfqId, page, index, field, reason: issue.reason, error };
}

function invalid(operation: string, err: z.ZodError, rfqId?: number): InvalidResponseError {
  const { field, reason } = firstIssue(err);
  return new InvalidResponseError({ operation, field, reason, rfqId });
}

/**
 * The HTTP adapter of the sourcing port (port.ts): builds requests and reads answers through the zod schemas in
 * schemas.ts, turning the wire format into the port's domain types. HTTP, retries, time-outs and error mapping live
 * in transport.ts.
 */
import { z } from 'zod';
import { InvalidRequestError, InvalidResponseError, PermanentHttpError } from '../errors.ts';
import { SOURCING_DEFAULTS } from '../config.ts';
import { silentLogger } from '../logger.ts';
import {
  editRfqRequestSchema,
  rfqDetailEnvelopeSchema,
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
import type { InvalidListedRfq, ListRfqsOptions, RfqListPage, SourcingPort } from './port.ts';
import { filterValue, stateOfLabel } from './status-labels.ts';
import type {
  CreateRfqRequest,
  ListedRfq,
  ListFilter,
  Quotation,
  QuotationList,
  RfqHeaderEdit,
  RfqStatusFilter,
} from './types.ts';
import { RFQ_STATUSES } from './types.ts';

/**
 * The transport's options (base URL, which may include a prefix such as http://host/esourcing; the token, asked
 * per request so a replaced token file is picked up; time-outs, retries, rate-limit hooks), plus pagination.
 */
export interface SourcingClientOptions extends TransportOptions {
  /** Pages read at most per list (a guard against a service that never ends a list). Default SOURCING_MAX_PAGES's (src/config.ts). */
  maxPages?: number;
  /** Pages fetched at once when `links.last` is known. Default SOURCING_PAGE_CONCURRENCY's. */
  pageConcurrency?: number;
}

export type { InvalidListedRfq, ListRfqsOptions, RfqListPage, SourcingPort as SourcingClient } from './port.ts';

/** Pagination settings a client runs with: the options given, else the config schema's defaults. */
export function clientSettings(o: Pick<SourcingClientOptions, 'maxPages' | 'pageConcurrency'>): {
  maxPages: number;
  pageConcurrency: number;
} {
  return {
    maxPages: o.maxPages ?? SOURCING_DEFAULTS.maxPages,
    pageConcurrency: Math.max(1, o.pageConcurrency ?? SOURCING_DEFAULTS.pageConcurrency),
  };
}

export function createSourcingClient(o: SourcingClientOptions): SourcingPort {
  const logger = o.logger ?? silentLogger;
  const transport = createTransport({ ...o, logger });
  const { maxPages, pageConcurrency } = clientSettings(o);
  const originWarning = { given: false };

  async function createRfq(
    body: CreateRfqRequest,
    opts: { signal?: AbortSignal; permitHeld?: boolean } = {},
  ): Promise<{ _id: number }> {
    const normalised = { ...body, rfq_type: normaliseRfqType(body.rfq_type) };
    const checked = createRfqRequestSchema.safeParse(normalised);
    if (!checked.success) {
      const { field, reason } = firstIssue(checked.error);
      throw new InvalidRequestError('createRfq', `request not sent: field ${field}: ${reason}`);
    }
    const { json } = await transport.requestJson({
      operation: 'createRfq',
      method: 'POST',
      path: '/v1/rfqs',
      body: checked.data,
      signal: opts.signal,
      permitHeld: opts.permitHeld,
    });
    const parsed = createRfqResponseSchema.safeParse(json);
    if (!parsed.success) throw invalid('createRfq', parsed.error);
    return { _id: parsed.data.rfq._id };
  }

  async function* listRfqPages(list: ListFilter, opts: ListRfqsOptions = {}): AsyncGenerator<RfqListPage> {
    const f =
      list === null
        ? null
        : typeof list === 'string'
          ? { state: String(list).toLowerCase() as RfqStatusFilter, form: 'lower' as const }
          : list;
    if (f !== null && !RFQ_STATUSES.includes(f.state))
      throw new InvalidRequestError('listRfqs', `unknown status filter ${String(f.state)}`);
    const filter = f === null ? undefined : filterValue(f.state, f.form);
    let total: number | undefined;
    const pages = paginate<{ rfqs: ListedRfq[]; invalid: InvalidListedRfq[]; pageTotal: number | undefined }>({
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
            logger.debug(
              { operation: 'listRfqs', status: filter, page, retry: n, error: (err as Error).message },
              'list page failed; asking it again',
            );
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
        signal: opts.signal,
      });
      const env = rfqListEnvelopeSchema.safeParse(json);
      if (!env.success) throw invalid('listRfqs', env.error);
      const pageTotal = env.data.meta?.total;
      if (page === 1) total = pageTotal;
      // Each RFQ on its own: one bad record must not hide the rest of the page.
      const rfqs: ListedRfq[] = [];
      const invalidRfqs: InvalidListedRfq[] = [];
      env.data.rfqs.forEach((raw, i) => {
        const r = parseListedRfq(raw, i, page);
        if ('error' in r) invalidRfqs.push(r);
        else rfqs.push(r);
      });
      return {
        items: { rfqs, invalid: invalidRfqs, pageTotal },
        next: env.data.links?.next,
        last: env.data.links?.last,
      };
    }
    // Reported in page order, as the pages are yielded (they may be fetched out of order).
    for await (const { page, items } of pages) {
      for (const bad of items.invalid) {
        if (!opts.onInvalid) throw bad.error;
        // Debug only: the caller reports it (the poll warns once per RFQ, with its tracking context).
        logger.debug(
          {
            operation: 'listRfqs',
            status: filter,
            rfqId: bad.rfqId,
            page,
            index: bad.index,
            field: bad.field,
            reason: bad.reason,
          },
          'listed RFQ breaks the schema; reported apart',
        );
        opts.onInvalid(bad);
      }
      yield {
        page,
        rfqs: items.rfqs,
        ...(items.invalid.length > 0 ? { invalid: items.invalid } : {}),
        total,
        pageTotal: items.pageTotal,
      };
    }
  }

  async function* listRfqs(status: ListFilter, opts: ListRfqsOptions = {}): AsyncGenerator<ListedRfq> {
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

  async function getRfq(rfqId: number): Promise<ListedRfq | undefined> {
    checkRfqId('getRfq', rfqId);
    let json: unknown;
    try {
      ({ json } = await transport.requestJson({ operation: 'getRfq', method: 'GET', path: `/v1/rfqs/${rfqId}` }));
    } catch (err) {
      // 404: no such RFQ, or (where the service has no detail call) no such endpoint: the dialect tells which
      if (err instanceof PermanentHttpError && err.status === 404) return undefined;
      throw err;
    }
    const env = rfqDetailEnvelopeSchema.safeParse(json);
    if (!env.success) throw invalid('getRfq', env.error, rfqId);
    const r = parseListedRfq(env.data.rfq, 0, 1);
    if ('error' in r) throw r.error;
    if (r._id !== rfqId)
      throw new InvalidResponseError({
        operation: 'getRfq',
        field: 'rfq._id',
        reason: `answer is for RFQ ${r._id}`,
        rfqId,
      });
    return r;
  }

  async function editRfq(rfqId: number, header: RfqHeaderEdit): Promise<void> {
    checkRfqId('editRfq', rfqId);
    const checked = editRfqRequestSchema.safeParse(header);
    if (!checked.success) {
      const { field, reason } = firstIssue(checked.error);
      throw new InvalidRequestError('editRfq', `request not sent: field ${field}: ${reason}`);
    }
    await transport.requestJson({ operation: 'editRfq', method: 'PUT', path: `/v1/rfqs/${rfqId}`, body: checked.data });
  }

  async function listQuotations(
    rfqId: number,
    opts: { quotationKey?: string; status?: 'success'; fields?: string[] } = {},
  ): Promise<QuotationList> {
    checkRfqId('listQuotations', rfqId);
    const path = `/v1/quotations/${rfqId}${opts.quotationKey !== undefined ? `/${encodeURIComponent(opts.quotationKey)}` : ''}`;
    // quotation_key is always asked for: a quotation we cannot name is of no use to a comparison.
    const fields =
      opts.fields && opts.fields.length > 0 ? [...new Set(['quotation_key', ...opts.fields])].join(',') : undefined;
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
      throw new InvalidResponseError({
        operation: 'listQuotations',
        field: 'rfq.id',
        reason: `answer is for RFQ ${echoed}`,
        rfqId,
      });
    }
    let raws: unknown[];
    if (env.data.quotations !== undefined) raws = env.data.quotations;
    else if (env.data.quotation !== undefined && env.data.quotation !== null) raws = [env.data.quotation];
    else if (opts.quotationKey !== undefined && json && typeof json === 'object' && 'quotation_key' in json)
      raws = [json];
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
      logger.warn(
        { operation: 'listQuotations', rfqId, index, quotation_key, field, reason },
        'quotation breaks the schema; left out',
      );
    });
    return { rfqId, quotations, invalid: invalidList };
  }

  return {
    createRfq,
    listRfqs,
    listRfqPages,
    getRfq,
    editRfq,
    listQuotations,
    close: () => transport.close(),
  };
}

/**
 * `public`, `PUBLIC`... -> `Public`: any case in, `Public` or `Private` out
 * (docs/architecture.md#where-the-interface-is-silent).
 */
export function normaliseRfqType(t: string): 'Public' | 'Private' {
  const v = String(t).trim().toLowerCase();
  if (v === 'public') return 'Public';
  if (v === 'private') return 'Private';
  return t as 'Public' | 'Private'; // the schema check names it
}

function checkRfqId(operation: string, rfqId: number): void {
  if (!Number.isSafeInteger(rfqId) || rfqId <= 0) throw new InvalidRequestError(operation, `invalid RFQ id ${rfqId}`);
}

function parseListedRfq(raw: unknown, index: number, page: number): ListedRfq | InvalidListedRfq {
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

function invalid(operation: string, err: z.ZodError, rfqId?: number): InvalidResponseError {
  const { field, reason } = firstIssue(err);
  return new InvalidResponseError({ operation, field, reason, rfqId });
}

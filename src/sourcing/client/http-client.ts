/**
 * The HTTP adapter of the sourcing port (port.ts): builds requests and reads answers through the zod schemas in
 * schemas.ts, turning the wire format into the port's domain types. HTTP, retries, time-outs and error mapping live
 * in transport/http-transport.ts. The endpoints live by resource (client/create-rfq.ts, client/list-rfqs.ts, client/rfq-detail.ts,
 * client/quotations.ts, client/vendors.ts) as functions of the shared ClientContext; this file assembles them.
 */
import { SOURCING_DEFAULTS } from '../../settings/index.ts';
import { silentLogger } from '../../core/index.ts';
import type { ClientContext } from './context.ts';
import { createRfq } from './create-rfq.ts';
import { listRfqPages, listRfqs } from './list-rfqs.ts';
import { listQuotations } from './quotations.ts';
import { editRfq, getRfq } from './rfq-detail.ts';
import { listVendors } from './vendors.ts';
import { createTransport, type TransportOptions } from '../transport/index.ts';
import type { SourcingPort } from '../port.ts';

/**
 * The transport's options (base URL, which may include a prefix such as http://host/esourcing; the token, asked
 * per request so a replaced token file is picked up; time-outs, retries, rate-limit hooks), plus pagination.
 */
export interface SourcingClientOptions extends TransportOptions {
  /** Pages read at most per list (a guard against a service that never ends a list). Default SOURCING_MAX_PAGES's (src/settings/config.ts). */
  maxPages?: number;
  /** Pages fetched at once when `links.last` is known. Default SOURCING_PAGE_CONCURRENCY's. */
  pageConcurrency?: number;
}

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

/** The sourcing port as the HTTP adapter serves it (what the worker context's clients are). */
export type SourcingClient = SourcingPort;

export function createSourcingClient(o: SourcingClientOptions): SourcingPort {
  const logger = o.logger ?? silentLogger;
  const transport = createTransport({ ...o, logger });
  const { maxPages, pageConcurrency } = clientSettings(o);
  const c: ClientContext = { transport, logger, maxPages, pageConcurrency, originWarning: { given: false } };
  return {
    createRfq: (body, opts) => createRfq(c, body, opts),
    listRfqs: (status, opts) => listRfqs(c, status, opts),
    listRfqPages: (list, opts) => listRfqPages(c, list, opts),
    getRfq: (rfqId, opts) => getRfq(c, rfqId, opts),
    editRfq: (rfqId, header) => editRfq(c, rfqId, header),
    listQuotations: (rfqId, opts) => listQuotations(c, rfqId, opts),
    listVendors: (opts) => listVendors(c, opts),
    close: () => transport.close(),
  };
}

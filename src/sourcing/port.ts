/**
 * The sourcing port: how the rest of rfq-sync talks to the sourcing service, in domain types (types.ts: RFQ, line,
 * quotation, state), never the wire format. The HTTP client (client/http-client.ts) is its adapter; tests may script it.
 * What a particular service supports beyond the three documented operations (the unfiltered list, the detail and
 * edit calls, the filter's letter case, the external_id echo) is detected per account (dialect.ts), never assumed.
 */
import type { InvalidResponseError } from '../core/index.ts';
import type { CreateRfqRequest, ListedRfq, ListFilter, QuotationList, RfqHeaderEdit, RfqState } from './types.ts';
import type { VendorListing } from './vendor-types.ts';

/** One RFQ of a list page that breaks the schema (the page itself was fine). */
export interface InvalidListedRfq {
  /** Set when the RFQ's `_id` is readable: it is in the list it was found in, whatever else is wrong. */
  rfqId?: number;
  page: number;
  /** Position in the page's `rfqs`. */
  index: number;
  field: string;
  reason: string;
  /** The state its status label names, when that is readable: a broken record still says where it is. */
  labelState?: RfqState;
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
  /** Ends the listing (the poll's budget, POLL_MAX_MS). */
  signal?: AbortSignal;
  /**
   * `edges`: page 1 and the last page only (where a list sorted by creation shows a new RFQ): the list-lag probe.
   * `backward`: page 1, then the last page down to page 2, one request at a time (a reader of a list in _id order
   * that needs only its newest end and stops early: list-walk.ts). Default: every page.
   */
  pages?: 'all' | 'edges' | 'backward';
}

export interface RfqListPage {
  page: number;
  rfqs: ListedRfq[];
  /** RFQs of this page that break the schema; present only when there are some (and `onInvalid` was given). */
  invalid?: InvalidListedRfq[];
  /**
   * How many RFQs the service says the list holds, as this page reports it (it may count RFQs it hides from lists).
   * A walk proves it read a list whole when every page reports the same size and the pages hold that many.
   */
  listSize?: number;
  /** The list's last page number, where known (`backward` pages: from page 1's `links.last`). */
  lastPage?: number;
}

export interface SourcingPort {
  /** `deadlineMs`: the call ends by then if that is sooner than the call deadline (the exactly-once lease left). */
  createRfq(body: CreateRfqRequest, opts?: { signal?: AbortSignal; deadlineMs?: number }): Promise<{ _id: number }>;
  /**
   * Every RFQ of the account in that state, all pages (each `_id` once). A page whose envelope is broken throws
   * InvalidResponseError; one bad RFQ of a page goes to `onInvalid` (or throws without it).
   */
  listRfqs(list: ListFilter, opts?: ListRfqsOptions): AsyncIterable<ListedRfq>;
  /** One list page by page; `all` is the unfiltered list (every RFQ of the account, where the service has it). */
  listRfqPages(list: ListFilter, opts?: ListRfqsOptions): AsyncIterable<RfqListPage>;
  /**
   * GET /v1/rfqs/{id}: undefined on 404 (no such RFQ, or no detail call: the dialect says which). A record that
   * breaks the schema goes to `onInvalid` (then undefined), or throws without it, as a list's does.
   */
  getRfq(rfqId: number, opts?: { onInvalid?: (bad: InvalidListedRfq) => void }): Promise<ListedRfq | undefined>;
  /** PUT /v1/rfqs/{id}: changes the header (where the service has the edit call). */
  editRfq(rfqId: number, header: RfqHeaderEdit): Promise<void>;
  listQuotations(
    rfqId: number,
    opts?: { quotationKey?: string; status?: 'success'; fields?: string[] },
  ): Promise<QuotationList>;
  /** The account's vendor directory, all pages (client/vendors.ts); `absent` where the service has none. */
  listVendors(opts?: { signal?: AbortSignal }): Promise<VendorListing>;
  close(): Promise<void>;
}

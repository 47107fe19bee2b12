/**
 * The sourcing service as rfq-sync sees it: the port, its dialects, wire schemas, list walks and lag, over one
 * transport.
 */
export { type AccountReading, hasExternalIds } from './account-reading.ts';
export { detectDialect, type Dialect, type DialectSettings, type Tristate } from './dialect.ts';
export { type LimitedTextField, MAX_LINES_PER_RFQ, REQUEST_TEXT_LIMITS } from './limits.ts';
export { measureListLag } from './list-lag.ts';
export { listingStrategyFor } from './listing-strategy.ts';
export type { StateSink } from './listing-types.ts';
export type { ListingFigures, ListingPort, ListName } from './listing-types.ts';
export type { InvalidListedRfq, ListRfqsOptions, SourcingPort } from './port.ts';
export { targetedReadingFor } from './targeted-read.ts';
export type {
  CreateRfqRequest,
  ListedRfq,
  ListFilter,
  Quotation,
  QuotationList,
  RfqHeaderEdit,
  RfqStatusFilter,
} from './types.ts';
export type { Vendor } from './vendor-types.ts';

/**
 * The one HTTP transport to the sourcing service: base URL, token, time-outs, retries, pagination and error mapping
 * in one place.
 */
export { createTransport } from './http-transport.ts';
export { type FetchedPage, pageFromLink, paginate } from './pagination.ts';
export type { Transport, TransportOptions } from './types.ts';

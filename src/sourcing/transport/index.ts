/**
 * The one HTTP transport to the sourcing service: base URL, token, time-outs, retries, pagination and error mapping
 * in one place.
 */
export {
  createTransport,
  type FetchedPage,
  pageFromLink,
  paginate,
  type Transport,
  type TransportOptions,
} from './http-transport.ts';

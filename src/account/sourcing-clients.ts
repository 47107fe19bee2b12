/**
 * The sourcing clients' options from the configuration, and how their calls share the account's rate limit: the one
 * place they are listed (the worker's two clients, and the one-off client of `suggest-vendors`).
 */
import type { SettingValues, serviceSettings } from '../settings/index.ts';
import type { SourcingClientOptions } from '../sourcing/client/index.ts';
import { inReadsFirst, type RateLimiter } from './rate-limiter.ts';

/** The sourcing client's time-outs, retries and paging (src/settings/service.ts). */
export type SourcingClientConfig = Pick<
  SettingValues<typeof serviceSettings>,
  | 'SOURCING_CONNECT_TIMEOUT_MS'
  | 'SOURCING_HEADERS_TIMEOUT_MS'
  | 'SOURCING_BODY_TIMEOUT_MS'
  | 'SOURCING_CALL_DEADLINE_MS'
  | 'SOURCING_GET_RETRIES'
  | 'SOURCING_CONNECTIONS'
  | 'SOURCING_MAX_PAGES'
  | 'SOURCING_PAGE_CONCURRENCY'
>;

/**
 * How long a page of a listing waits for its permit before ThrottledError. A listing part-way through just waits
 * (bounded); a single call (create, quotations) waits the limiter's default (2 s) and its job is delayed beyond.
 */
export const LISTING_PERMIT_WAIT_MS = 30_000;
const LISTINGS = new Set(['listRfqs', 'listVendors']);

/**
 * Every HTTP attempt of a client takes one permit of the shared limiter, except a create: the create protocol takes
 * its permit with the claim (claim-6.lua), so the POST goes out the moment its lease allows (a POST is never
 * retried, so that is its only attempt). Every Retry-After holds everyone off. A call made inside `readsFirst`
 * (the list-lag probe, a webhook's targeted check) takes its permit with priority.
 */
export function rateLimitHooks(limiter: RateLimiter): Pick<SourcingClientOptions, 'beforeRequest' | 'onRetryAfter'> {
  return {
    beforeRequest: async (operation) => {
      if (operation === 'createRfq') return;
      await limiter.acquire({
        ...(LISTINGS.has(operation) ? { maxWaitMs: LISTING_PERMIT_WAIT_MS } : {}),
        ...(inReadsFirst() ? { priority: true } : {}),
      });
    },
    onRetryAfter: (ms) => limiter.holdOff(ms),
  };
}

/** Options of the sourcing client from the configuration: the one place they are listed. */
export function sourcingClientOptions(
  config: SourcingClientConfig,
  o: Pick<SourcingClientOptions, 'baseUrl' | 'getToken' | 'logger' | 'onCall' | 'beforeRequest' | 'onRetryAfter'>,
): SourcingClientOptions {
  return {
    ...o,
    connectTimeoutMs: config.SOURCING_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.SOURCING_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: config.SOURCING_BODY_TIMEOUT_MS,
    callDeadlineMs: config.SOURCING_CALL_DEADLINE_MS,
    getRetries: config.SOURCING_GET_RETRIES,
    connections: config.SOURCING_CONNECTIONS,
    maxPages: config.SOURCING_MAX_PAGES,
    pageConcurrency: config.SOURCING_PAGE_CONCURRENCY,
  };
}

/** The listing client's options (see WorkerContext.listingClient): the GET retries of `base` (per page), one page at a time. */
export function listingClientOptions(
  base: SourcingClientOptions,
  config: Pick<SourcingClientConfig, 'SOURCING_CONNECTIONS'>,
): SourcingClientOptions {
  return { ...base, pageConcurrency: 1, connections: Math.min(4, config.SOURCING_CONNECTIONS) };
}

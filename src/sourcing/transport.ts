/**
 * The one HTTP transport to the sourcing service (undici Pool, keep-alive). Endpoint code never touches undici.
 *
 * - Every request goes to the origin of the configured base URL, path = base prefix + `/v1/...`; the bearer token
 *   is read per request (a replaced token file is picked up) and never written into a message.
 * - GET is retried on 5xx, resets and time-outs with jittered exponential back-off, and on 429 after the
 *   Retry-After wait, as long as that wait is within `retryAfterCapMs`; a longer wait is thrown as RateLimitError so
 *   the job is rescheduled instead of blocking a worker. POST is never retried (no idempotency key on the service).
 * - Non-2xx answers become errors only through `errorFromHttpStatus`; network failures become TransientHttpError.
 *   At most 2 KiB of an error body is read and kept, scrubbed of the token.
 * - `beforeRequest` runs before every attempt - first tries, retries and each page alike - so a shared rate limit
 *   (src/creation/rate-limiter.ts) counts every call that reaches the service; `onRetryAfter` hears every 429 that
 *   names a wait, so every caller (not only this request) holds off.
 */
import { Pool, errors as undiciErrors } from 'undici';
import {
  ConfigError,
  InvalidResponseError,
  MAX_ERROR_BODY_CHARS,
  RateLimitError,
  RfqSyncError,
  TransientHttpError,
  errorFromHttpStatus,
} from '../errors.ts';
import { SOURCING_DEFAULTS } from '../config.ts';
import { scrubSecrets, silentLogger, type Logger } from '../logger.ts';

export interface TransportOptions {
  baseUrl: string;
  getToken: () => string;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /**
   * The longest one attempt may take, request to the end of its body, ms. undici's body time-out restarts with every
   * byte, so a body that trickles would otherwise hold a call (and the exactly-once lease) for ever.
   */
  callDeadlineMs?: number;
  /** Extra attempts for a GET after the first. */
  getRetries?: number;
  connections?: number;
  retryAfterCapMs?: number;
  /** First back-off step; doubled per attempt, full jitter, capped by maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Largest success body accepted (bytes). */
  maxResponseBytes?: number;
  logger?: Logger;
  onCall?: (c: { operation: string; status: number | 'error' | 'invalid'; durationMs: number }) => void;
  /**
   * Awaited before every HTTP attempt (retries and pages included), e.g. to take a rate-limit permit. What it
   * throws ends the request (nothing is sent).
   */
  beforeRequest?: (operation: string) => Promise<void>;
  /** A 429 named a Retry-After (ms): called before this request waits or gives up, so others hold off too. */
  onRetryAfter?: (ms: number) => Promise<void> | void;
}

export interface TransportRequest {
  operation: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path below the base URL, starting with `/v1/`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body (POST). */
  body?: unknown;
  signal?: AbortSignal;
  /** The caller already took the permit for the first attempt (`beforeRequest` is skipped for it). */
  permitHeld?: boolean;
}

export interface Transport {
  /** Origin of the base URL (where the token may go). */
  readonly origin: string;
  /** Path prefix before `/v1` ('' or e.g. `/esourcing`). */
  readonly prefix: string;
  /** Sends the request; resolves with the parsed JSON of a 2xx answer, throws an RfqSyncError otherwise. */
  requestJson(r: TransportRequest): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

const RETRYABLE_NETWORK_CODES = new Set([
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

export type TransportSettings = Required<
  Pick<
    TransportOptions,
    | 'connectTimeoutMs'
    | 'headersTimeoutMs'
    | 'bodyTimeoutMs'
    | 'callDeadlineMs'
    | 'getRetries'
    | 'connections'
    | 'retryAfterCapMs'
    | 'baseBackoffMs'
    | 'maxBackoffMs'
    | 'maxResponseBytes'
  >
>;

/**
 * The settings a transport runs with: the options given, else the config schema's defaults (SOURCING_DEFAULTS) for
 * those with a setting; back-off, Retry-After cap and body size have none.
 */
export function transportSettings(o: Partial<TransportOptions>): TransportSettings {
  return {
    connectTimeoutMs: o.connectTimeoutMs ?? SOURCING_DEFAULTS.connectTimeoutMs,
    headersTimeoutMs: o.headersTimeoutMs ?? SOURCING_DEFAULTS.headersTimeoutMs,
    bodyTimeoutMs: o.bodyTimeoutMs ?? SOURCING_DEFAULTS.bodyTimeoutMs,
    callDeadlineMs: o.callDeadlineMs ?? SOURCING_DEFAULTS.callDeadlineMs,
    getRetries: o.getRetries ?? SOURCING_DEFAULTS.getRetries,
    connections: o.connections ?? SOURCING_DEFAULTS.connections,
    retryAfterCapMs: o.retryAfterCapMs ?? 30_000,
    baseBackoffMs: o.baseBackoffMs ?? 250,
    maxBackoffMs: o.maxBackoffMs ?? 8_000,
    maxResponseBytes: o.maxResponseBytes ?? 64 * 1024 * 1024,
  };
}

export function createTransport(o: TransportOptions): Transport {
  const base = new URL(o.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new ConfigError([
      `SOURCING_BASE_URL: must be a URL starting with http:// or https:// (not ${base.protocol})`,
    ]);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const logger = o.logger ?? silentLogger;
  const { getRetries, retryAfterCapMs, baseBackoffMs, maxBackoffMs, callDeadlineMs, ...poolSettings } =
    transportSettings(o);
  const pool = new Pool(origin, {
    connections: poolSettings.connections,
    connectTimeout: poolSettings.connectTimeoutMs,
    headersTimeout: poolSettings.headersTimeoutMs,
    bodyTimeout: poolSettings.bodyTimeoutMs,
    keepAliveTimeout: 10_000,
    maxResponseSize: poolSettings.maxResponseBytes,
  });

  function scrub(text: string, token: string): string {
    const cleaned = token.length > 0 ? text.split(token).join('[REDACTED]') : text;
    return scrubSecrets(cleaned);
  }

  async function attempt(r: TransportRequest, token: string): Promise<{ status: number; json: unknown }> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(r.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const path = `${prefix}${r.path}${qs.size > 0 ? `?${qs.toString()}` : ''}`;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let body: string | undefined;
    if (r.method !== 'GET') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(r.body ?? {});
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded'; // spec 4: the GET requests carry this
    }
    const started = performance.now();
    let status: number | 'error' | 'invalid' = 'error';
    const deadline = AbortSignal.timeout(callDeadlineMs);
    const signal = r.signal ? AbortSignal.any([r.signal, deadline]) : deadline;
    try {
      const res = await pool.request({ path, method: r.method, headers, body, signal, idempotent: r.method === 'GET' });
      status = res.statusCode;
      if (res.statusCode >= 200 && res.statusCode < 300) {
        const text = await res.body.text();
        try {
          return { status: res.statusCode, json: text === '' ? null : JSON.parse(text) };
        } catch {
          status = 'invalid'; // a 200 that is not JSON (a login page, a proxy's error page): readiness counts it as failed
          throw new InvalidResponseError({
            operation: r.operation,
            field: '(body)',
            reason: `not valid JSON (${text.length} bytes)`,
          });
        }
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        // never followed (the token would go along); said with where it pointed, origin only (no path, no query)
        await res.body.dump().catch(() => undefined);
        const location = res.headers.location;
        let to = 'no Location given';
        try {
          if (typeof location === 'string') to = `to ${new URL(location, `${origin}${prefix}/`).origin}`;
        } catch {
          to = 'to an unreadable Location';
        }
        throw errorFromHttpStatus({
          operation: r.operation,
          status: res.statusCode,
          body: `redirect ${to} refused: redirects are not followed; check SOURCING_BASE_URL (https://? the path prefix?)`,
        });
      }
      const errBody = scrub(await readCapped(res.body, MAX_ERROR_BODY_CHARS), token);
      throw errorFromHttpStatus({
        operation: r.operation,
        status: res.statusCode,
        body: errBody,
        retryAfterMs: res.statusCode === 429 ? parseRetryAfter(res.headers['retry-after']) : undefined,
      });
    } catch (err) {
      if (r.signal?.aborted) throw err;
      if (deadline.aborted) {
        // no whole answer in time (a trickling body, a stalled connection): the outcome of a POST is unknown
        throw new TransientHttpError({
          operation: r.operation,
          reason: `no complete answer within ${callDeadlineMs} ms (SOURCING_CALL_DEADLINE_MS)`,
        });
      }
      if (err instanceof RfqSyncError) throw err;
      throw networkError(r.operation, err, token);
    } finally {
      const durationMs = performance.now() - started;
      o.onCall?.({ operation: r.operation, status, durationMs });
      logger.debug(
        { operation: r.operation, method: r.method, path, status, durationMs: Math.round(durationMs) },
        'sourcing call',
      );
    }
  }

  function networkError(operation: string, err: unknown, token: string): RfqSyncError {
    const code = (err as { code?: string } | null)?.code ?? '';
    const message = err instanceof Error ? scrub(err.message, token) : 'unknown error';
    const reason = code ? `${code}: ${message}` : message;
    // A cause is kept for diagnosis but carries only code and scrubbed message: no request options, no headers.
    const cause = { code, message };
    if (err instanceof undiciErrors.ResponseExceededMaxSizeError) {
      return new InvalidResponseError({ operation, field: '(body)', reason: 'response too large' });
    }
    // Resets, refusals, time-outs (RETRYABLE_NETWORK_CODES) and any other failure to get an answer: transient.
    return new TransientHttpError(
      { operation, reason: RETRYABLE_NETWORK_CODES.has(code) ? reason : `network error: ${reason}` },
      { cause },
    );
  }

  async function requestJson(r: TransportRequest): Promise<{ status: number; json: unknown }> {
    const maxAttempts = r.method === 'GET' ? 1 + getRetries : 1;
    for (let n = 1; ; n++) {
      if (o.beforeRequest && !(n === 1 && r.permitHeld)) await o.beforeRequest(r.operation);
      const token = o.getToken().trim(); // a token file usually ends with a newline
      try {
        return await attempt(r, token);
      } catch (err) {
        if (err instanceof RateLimitError && err.retryAfterMs !== undefined && o.onRetryAfter)
          await o.onRetryAfter(err.retryAfterMs);
        if (err instanceof RateLimitError && err.retryAfterMs !== undefined && err.retryAfterMs > retryAfterCapMs) {
          throw err; // the job is rescheduled for later; a worker does not sleep that long
        }
        const retryable = err instanceof RfqSyncError && err.kind === 'transient';
        if (!retryable || n >= maxAttempts || r.signal?.aborted) throw err;
        const backoff = Math.random() * Math.min(maxBackoffMs, baseBackoffMs * 2 ** (n - 1));
        const hinted = err instanceof RateLimitError ? err.retryAfterMs : undefined;
        const waitMs = Math.min(retryAfterCapMs, hinted !== undefined ? hinted : backoff);
        logger.warn(
          {
            operation: r.operation,
            attempt: n,
            of: maxAttempts,
            waitMs: Math.round(waitMs),
            error: (err as Error).message,
          },
          'sourcing call failed, retrying',
        );
        await sleep(waitMs, r.signal);
      }
    }
  }

  return {
    origin,
    prefix,
    requestJson,
    async close() {
      await pool.close();
    },
  };
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.max(0, Math.round(Number(v) * 1000));
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Read at most `max` characters of a body, then throw the rest away (a huge error page is not kept). */
async function readCapped(
  body: AsyncIterable<Buffer | string> & { destroy?: () => void },
  max: number,
): Promise<string> {
  let out = '';
  try {
    for await (const chunk of body) {
      out += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (out.length >= max) break;
    }
  } catch {
    // a broken error body is not worth more than what we have
  }
  body.destroy?.();
  return out.slice(0, max);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// ---------------------------------------------------------------- pagination

/** The `page` number in a pagination link, or undefined when the link is absent, empty or has none. */
export function pageFromLink(link: string | null | undefined): number | undefined {
  if (link === null || link === undefined || link.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(link, 'http://relative.invalid');
  } catch {
    return undefined;
  }
  const p = url.searchParams.get('page');
  if (p === null || !/^\d+$/.test(p)) return undefined;
  const n = Number(p);
  return n >= 1 ? n : undefined;
}

/** Origin of a link, or undefined when relative or unreadable. */
export function originOfLink(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  try {
    return new URL(link).origin;
  } catch {
    return undefined;
  }
}

export interface FetchedPage<T> {
  items: T;
  next?: string | null;
  last?: string | null;
}

export interface PaginateOptions<T> {
  fetchPage: (page: number) => Promise<FetchedPage<T>>;
  /** The base URL's origin: links elsewhere are only read for their page number (and warned about once). */
  origin: string;
  maxPages: number;
  concurrency: number;
  /** Whether a page holds nothing (ends a walk that follows `next`). */
  isEmpty: (items: T) => boolean;
  logger: Logger;
  operation: string;
  /** Shared across walks so a poller warns about a foreign link origin once, not every minute. */
  originWarning?: { given: boolean };
}

/**
 * All pages in order. Page numbers come from `links.next`/`links.last`; each page is requested by number on the
 * base URL (never the absolute link). Stops when `next` is absent/empty, passes `last`, repeats or goes back, when a
 * page is empty, or at `maxPages`. When `last` is known, pages 2..last are fetched concurrently, yielded in order.
 */
export async function* paginate<T>(o: PaginateOptions<T>): AsyncGenerator<{ page: number; items: T }> {
  const warned = o.originWarning ?? { given: false };
  const checkOrigin = (links: Array<string | null | undefined>) => {
    if (warned.given) return;
    for (const l of links) {
      const lo = originOfLink(l);
      if (lo !== undefined && lo !== o.origin) {
        warned.given = true;
        o.logger.warn(
          { operation: o.operation, linkOrigin: lo, baseOrigin: o.origin },
          'pagination links name another origin; pages are requested on the configured base URL instead',
        );
        return;
      }
    }
  };
  const capWarn = (last: number) =>
    o.logger.warn(
      { operation: o.operation, last, maxPages: o.maxPages },
      'list has more pages than maxPages; the rest is not read',
    );

  const first = await o.fetchPage(1);
  checkOrigin([first.next, first.last]);
  yield { page: 1, items: first.items };
  const last = pageFromLink(first.last);
  let next = pageFromLink(first.next);

  if (last !== undefined && last > 1 && next !== undefined && next <= last) {
    // Known extent: fetch 2..last with bounded concurrency, yield in order.
    const end = Math.min(last, o.maxPages);
    if (last > o.maxPages) capWarn(last);
    const pending = new Map<number, Promise<FetchedPage<T>>>();
    let launched = 1;
    const launch = () => {
      while (launched < end && pending.size < o.concurrency) {
        launched++;
        const p = o.fetchPage(launched);
        p.catch(() => undefined); // surfaced when awaited in order
        pending.set(launched, p);
      }
    };
    try {
      for (let page = 2; page <= end; page++) {
        launch();
        const got = await pending.get(page)!;
        pending.delete(page);
        checkOrigin([got.next, got.last]);
        yield { page, items: got.items };
      }
    } finally {
      // an early stop or failure: let the in-flight requests finish quietly
      for (const p of pending.values()) p.catch(() => undefined);
    }
    return;
  }

  const seen = new Set<number>([1]);
  let current = 1;
  let items = first.items;
  for (;;) {
    if (next === undefined || o.isEmpty(items)) return;
    if (next <= current || seen.has(next) || (last !== undefined && next > last)) {
      if (next <= current || seen.has(next))
        o.logger.warn(
          { operation: o.operation, page: current, next },
          'pagination link repeats or goes back; stopping',
        );
      return;
    }
    if (seen.size >= o.maxPages) {
      capWarn(last ?? next);
      return;
    }
    const got = await o.fetchPage(next);
    checkOrigin([got.next, got.last]);
    seen.add(next);
    current = next;
    items = got.items;
    yield { page: current, items };
    next = pageFromLink(got.next);
  }
}

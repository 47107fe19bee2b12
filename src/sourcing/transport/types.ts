/**
 * The transport's contract: what it is given (options), what it is asked (requests), what it offers, and the settings
 * it runs with. Apart from transport/http-transport.ts so the transport's pieces share these types without an import cycle.
 */
import { SOURCING_DEFAULTS } from '../../settings/index.ts';
import type { Logger } from '../../core/index.ts';

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
  /** This call's deadline when sooner than callDeadlineMs (a POST ends before its exactly-once lease), ms. */
  deadlineMs?: number;
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

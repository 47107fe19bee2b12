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
 *   (src/account/rate-limiter.ts) counts every call that reaches the service; `onRetryAfter` hears every 429 that
 *   names a wait, so every caller (not only this request) holds off.
 *
 * Its pieces: transport/types.ts (options, settings), transport/retry.ts (the retry loop), transport/attempt.ts (one
 * call under the deadline), transport/failures.ts (answers and failures as errors), transport/pagination.ts.
 */
import { Pool } from 'undici';
import { ConfigError, silentLogger } from '../../core/index.ts';
import { attempt, type AttemptContext } from './attempt.ts';
import { requestWithRetries, type RetryPolicy } from './retry.ts';
import { transportSettings, type Transport, type TransportOptions } from './types.ts';

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
  const attempts: AttemptContext = { pool, origin, prefix, callDeadlineMs, logger, hooks: o };
  const policy: RetryPolicy = { getRetries, retryAfterCapMs, baseBackoffMs, maxBackoffMs, logger, hooks: o };

  return {
    origin,
    prefix,
    requestJson: (r) => requestWithRetries(policy, r, (req, token) => attempt(attempts, req, token)),
    async close() {
      await pool.close();
    },
  };
}

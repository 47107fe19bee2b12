/**
 * How the transport's failures become RfqSyncErrors: a non-2xx answer (redirects refused, at most 2 KiB of an error
 * body kept, scrubbed of the token, Retry-After read) and a network failure (transient, cause kept without headers).
 */
import { errors as undiciErrors, type Dispatcher } from 'undici';
import {
  InvalidResponseError,
  MAX_ERROR_BODY_CHARS,
  TransientHttpError,
  errorFromHttpStatus,
  type RfqSyncError,
  scrubSecrets,
} from '../../core/index.ts';

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

/** The text without the token (and without anything else that looks like a secret). */
export function scrub(text: string, token: string): string {
  const cleaned = token.length > 0 ? text.split(token).join('[REDACTED]') : text;
  return scrubSecrets(cleaned);
}

/**
 * The error of a non-2xx answer, its body read (or thrown away) first. `base` is the origin and prefix the request
 * went to (a relative Location is read against it).
 */
export async function errorOfAnswer(
  res: Pick<Dispatcher.ResponseData, 'statusCode' | 'headers' | 'body'>,
  operation: string,
  base: { origin: string; prefix: string },
  token: string,
): Promise<RfqSyncError> {
  if (res.statusCode >= 300 && res.statusCode < 400) {
    // never followed (the token would go along); said with where it pointed, origin only (no path, no query)
    await res.body.dump().catch(() => undefined);
    const location = res.headers.location;
    let to = 'no Location given';
    try {
      if (typeof location === 'string') to = `to ${new URL(location, `${base.origin}${base.prefix}/`).origin}`;
    } catch {
      to = 'to an unreadable Location';
    }
    return errorFromHttpStatus({
      operation,
      status: res.statusCode,
      body: `redirect ${to} refused: redirects are not followed; check SOURCING_BASE_URL (https://? the path prefix?)`,
    });
  }
  const errBody = scrub(await readCapped(res.body, MAX_ERROR_BODY_CHARS), token);
  return errorFromHttpStatus({
    operation,
    status: res.statusCode,
    body: errBody,
    retryAfterMs: res.statusCode === 429 ? parseRetryAfter(res.headers['retry-after']) : undefined,
  });
}

/** A failure to get an answer (no status): transient, except a body over the size limit. */
export function networkError(operation: string, err: unknown, token: string): RfqSyncError {
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

/**
 * One HTTP attempt of the transport: the request built (base prefix, query, bearer token, JSON body), sent under the
 * call deadline, its answer read into JSON or an error, and counted (`onCall`, a debug line) however it ends.
 */
import type { Pool } from 'undici';
import { InvalidResponseError, RfqSyncError, TransientHttpError, type Logger } from '../../core/index.ts';
import { errorOfAnswer, networkError } from './failures.ts';
import type { TransportOptions, TransportRequest } from './types.ts';

/** What every attempt of one transport shares. */
export interface AttemptContext {
  pool: Pool;
  origin: string;
  prefix: string;
  callDeadlineMs: number;
  logger: Logger;
  /** The transport's options, for `onCall` (read per attempt). */
  hooks: Pick<TransportOptions, 'onCall'>;
}

/** Path (with the base prefix and the query), headers and body of a request. */
export function buildRequest(
  prefix: string,
  r: TransportRequest,
  token: string,
): { path: string; headers: Record<string, string>; body: string | undefined } {
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
  return { path, headers, body };
}

/** One attempt: the parsed JSON of a 2xx answer, or the RfqSyncError it ended with (the caller's abort as is). */
export async function attempt(
  c: AttemptContext,
  r: TransportRequest,
  token: string,
): Promise<{ status: number; json: unknown }> {
  const { path, headers, body } = buildRequest(c.prefix, r, token);
  const started = performance.now();
  let status: number | 'error' | 'invalid' = 'error';
  const deadlineMs = Math.max(1, Math.min(c.callDeadlineMs, r.deadlineMs ?? Infinity));
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = r.signal ? AbortSignal.any([r.signal, deadline]) : deadline;
  try {
    const res = await c.pool.request({ path, method: r.method, headers, body, signal, idempotent: r.method === 'GET' });
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
    throw await errorOfAnswer(res, r.operation, c, token);
  } catch (err) {
    if (r.signal?.aborted) throw err;
    if (deadline.aborted) {
      // no whole answer in time (a trickling body, a stalled connection): the outcome of a POST is unknown
      throw new TransientHttpError({
        operation: r.operation,
        reason: `no complete answer within ${deadlineMs} ms (${deadlineMs < c.callDeadlineMs ? 'what remained of the lease' : 'SOURCING_CALL_DEADLINE_MS'})`,
      });
    }
    if (err instanceof RfqSyncError) throw err;
    throw networkError(r.operation, err, token);
  } finally {
    const durationMs = performance.now() - started;
    c.hooks.onCall?.({ operation: r.operation, status, durationMs });
    c.logger.debug(
      { operation: r.operation, method: r.method, path, status, durationMs: Math.round(durationMs) },
      'sourcing call',
    );
  }
}

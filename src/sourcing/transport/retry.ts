/**
 * The transport's retry loop: a permit before every attempt (`beforeRequest`), the token read per attempt, GETs
 * retried on transient failures with jittered exponential back-off or the Retry-After wait within its cap.
 */
import { RateLimitError, RfqSyncError, type Logger } from '../../core/index.ts';
import type { TransportOptions, TransportRequest, TransportSettings } from './types.ts';

/** What the loop needs of the transport: its options' hooks (read per attempt) and its retry settings. */
export type RetryPolicy = Pick<
  TransportSettings,
  'getRetries' | 'retryAfterCapMs' | 'baseBackoffMs' | 'maxBackoffMs'
> & {
  hooks: Pick<TransportOptions, 'getToken' | 'beforeRequest' | 'onRetryAfter'>;
  logger: Logger;
};

/** Sends `r` through `attempt` until it answers, fails for good, runs out of attempts or is aborted. */
export async function requestWithRetries(
  p: RetryPolicy,
  r: TransportRequest,
  attempt: (r: TransportRequest, token: string) => Promise<{ status: number; json: unknown }>,
): Promise<{ status: number; json: unknown }> {
  const maxAttempts = r.method === 'GET' ? 1 + p.getRetries : 1;
  for (let n = 1; ; n++) {
    if (p.hooks.beforeRequest) await p.hooks.beforeRequest(r.operation);
    const token = p.hooks.getToken().trim(); // a token file usually ends with a newline
    try {
      return await attempt(r, token);
    } catch (err) {
      if (err instanceof RateLimitError && err.retryAfterMs !== undefined && p.hooks.onRetryAfter)
        await p.hooks.onRetryAfter(err.retryAfterMs);
      if (err instanceof RateLimitError && err.retryAfterMs !== undefined && err.retryAfterMs > p.retryAfterCapMs) {
        throw err; // the job is rescheduled for later; a worker does not sleep that long
      }
      const retryable = err instanceof RfqSyncError && err.kind === 'transient';
      if (!retryable || n >= maxAttempts || r.signal?.aborted) throw err;
      const backoff = Math.random() * Math.min(p.maxBackoffMs, p.baseBackoffMs * 2 ** (n - 1));
      const hinted = err instanceof RateLimitError ? err.retryAfterMs : undefined;
      const waitMs = Math.min(p.retryAfterCapMs, hinted !== undefined ? hinted : backoff);
      p.logger.warn(
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

/**
 * What the poll, quotations and comparison jobs do when the sourcing service says "not now":
 *   - 401/403 (AuthError): through the shared auth gate (pauses create-rfq and poll, logs one clear line), and the
 *     job goes back to delayed without spending an attempt, to run again once the token is replaced;
 *   - 429 beyond the client's own wait (RateLimitError): every worker holds off for Retry-After (shared limiter),
 *     the job is delayed until then;
 *   - our shared rate limiter has no permit soon (ThrottledError): delayed until it has;
 *   - the disk of the outbox is full (DiskFullError): delayed on a back-off that never gives up (disk-full.ts).
 * A record the service answers in a shape that cannot be read where it matters (InvalidResponseError naming a
 * field: an RFQ's identity, the quotation list's envelope) is asked again RECORD_ATTEMPTS times at most, whatever
 * JOB_ATTEMPTS allows: a record that will not change must not keep a job retrying for good. The job then fails
 * with the reason (`status`, `rfq-sync failed list`; `failed retry` once the service answers readably).
 * Anything else is thrown: BullMQ retries with back-off.
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { AuthError, DiskFullError, InvalidResponseError, RateLimitError, ThrottledError } from '../src/core/index.ts';
import { delayForDiskFull } from '../src/outbox/index.ts';
import type { jobSettings, SettingValues } from '../src/settings/index.ts';
import type { WorkerServices } from '../src/worker/index.ts';

/** How long a job waits before looking again while the token is refused. */
export const AUTH_RETRY_MS = 30_000;

/** Attempts of a job whose record cannot be read (the service may have been mid-write the first time). */
export const RECORD_ATTEMPTS = 3;

/** Call before using the service: while the gate is paused, the job is delayed instead of calling. */
export async function deferWhilePaused(ctx: Pick<WorkerServices, 'authGate'>, job: Job): Promise<void> {
  if (ctx.authGate.isPaused()) await delayJob(job, AUTH_RETRY_MS);
}

/** What a job's service errors are handled with: the pause, the hold-off, and the back-off of a job that waits. */
export type ServiceErrorContext = Pick<WorkerServices, 'authGate' | 'limiter' | 'logger'> & {
  config: Pick<SettingValues<typeof jobSettings>, 'JOB_BACKOFF_MS'>;
};

/** Rethrows `err` unless the service or the limiter said "not now": then the job is delayed (see above). */
export async function handleServiceError(ctx: ServiceErrorContext, job: Job, err: unknown): Promise<never> {
  if (err instanceof DiskFullError) return delayForDiskFull(job, err, ctx.config.JOB_BACKOFF_MS, ctx.logger);
  if (err instanceof AuthError) {
    await ctx.authGate.pause(err.message);
    return delayJob(job, AUTH_RETRY_MS);
  }
  if (err instanceof RateLimitError) {
    const ms = err.retryAfterMs ?? ctx.config.JOB_BACKOFF_MS;
    await ctx.limiter.holdOff(ms); // every worker holds off, the clients' permits too
    return delayJob(job, ms);
  }
  if (err instanceof ThrottledError) return delayJob(job, err.waitMs);
  // A body that is not JSON at all ('(body)') is a proxy's or the network's doing: retried as usual.
  if (err instanceof InvalidResponseError && err.field !== '(body)' && job.attemptsMade + 1 >= RECORD_ATTEMPTS)
    throw new UnrecoverableError(
      `${err.message} (unreadable on ${job.attemptsMade + 1} attempts: the job is failed; \`rfq-sync failed retry\` once the service answers it readably)`,
    );
  throw err;
}

async function delayJob(job: Job, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + Math.max(1, Math.ceil(ms)), job.token);
  throw new DelayedError();
}

/**
 * A refused token (401/403) pauses work instead of failing it (design.md): the job goes through the shared auth
 * gate (which pauses the create-rfq and poll queues and logs one clear line) and is put back as delayed, without
 * spending an attempt, to run again once the token is replaced.
 */
import { DelayedError, type Job } from 'bullmq';
import { AuthError } from '../errors.ts';
import type { TrackingContext } from './context.ts';

/** How long a job waits before looking again while the token is refused. */
export const AUTH_RETRY_MS = 30_000;

/** Call before using the service: while the gate is paused, the job is delayed instead of calling. */
export async function deferWhilePaused(ctx: Pick<TrackingContext, 'authGate'>, job: Job): Promise<void> {
  if (ctx.authGate.isPaused()) await deferJob(job);
}

/** Rethrows `err`, unless it is an AuthError: then pause through the gate and delay the job. */
export async function handleAuthError(ctx: Pick<TrackingContext, 'authGate'>, job: Job, err: unknown): Promise<never> {
  if (!(err instanceof AuthError)) throw err;
  await ctx.authGate.pause(err.message);
  return deferJob(job);
}

async function deferJob(job: Job): Promise<never> {
  await job.moveToDelayed(Date.now() + AUTH_RETRY_MS, job.token);
  throw new DelayedError();
}

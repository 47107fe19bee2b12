/**
 * A full disk under the outbox (or the reports): the job that could not write is delayed, not failed, on a back-off
 * that doubles from JOB_BACKOFF_MS up to DISK_FULL_MAX_DELAY_MS and never gives up (a disk can stay full over a
 * weekend); no attempt is spent. Every output is written once space returns. Said in the log with the path, the
 * first time and then every DISK_FULL_LOG_EVERY retries.
 */
import { DelayedError, type Job } from 'bullmq';
import type { DiskFullError, Logger } from '../core/index.ts';

export const DISK_FULL_MAX_DELAY_MS = 30 * 60_000;
const DISK_FULL_LOG_EVERY = 10;

export async function delayForDiskFull(job: Job, err: DiskFullError, baseMs: number, logger: Logger): Promise<never> {
  const n = Number((job.data as { diskFullRetries?: unknown }).diskFullRetries ?? 0) || 0;
  const delayMs = Math.min(DISK_FULL_MAX_DELAY_MS, Math.max(1, baseMs) * 2 ** Math.min(n, 30));
  await job.updateData({ ...(job.data as object), diskFullRetries: n + 1 });
  if (n % DISK_FULL_LOG_EVERY === 0) {
    logger.error(
      { event: 'disk.full', path: err.path, jobId: job.id, queue: job.queueName, retries: n, delayMs },
      `${err.message}; the job waits ${Math.round(delayMs / 1000)} s and tries again (it never gives up)`,
    );
  }
  await job.moveToDelayed(Date.now() + delayMs, job.token);
  throw new DelayedError();
}

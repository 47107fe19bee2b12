/**
 * A job while the audit log cannot be written (src/audit/writer.ts `fault`), beside a full disk (disk-full.ts): it waits, as for a Redis outage or a
 * full disk, instead of spending its attempts on a step whose line could not be recorded. Before the job runs, a
 * fault in force is looked at again (the folder made when missing); still there, the job goes back to delayed
 * without running. A line that fails while the job runs does the same. Nothing is lost: every step is idempotent and
 * its line is written when the job runs again (jobs/audit-lines.ts). A notification is not held before it runs (IT
 * must hear of the fault itself): it is sent, and waits for its line like any other job (sent once: its delivery is
 * recorded before and after).
 */
import { DelayedError, type Job } from 'bullmq';
import { AuditUnwritableError, DiskFullError } from '../core/index.ts';
import type { AuditLog } from '../audit/index.ts';

/** How long a job waits before it looks at the folder again. */
export const AUDIT_RETRY_MS = 5_000;

/** Run `work` unless the log cannot be written; a job that cannot record its steps is delayed, no attempt spent. */
export async function whileAuditWritable<T>(
  audit: Pick<AuditLog, 'fault' | 'check' | 'dir'>,
  job: Job,
  work: () => Promise<T>,
  o: { holdBefore: boolean },
): Promise<T> {
  if (o.holdBefore && audit.fault() && (await audit.check())) return delay(job);
  try {
    return await work();
  } catch (err) {
    const ours =
      err instanceof AuditUnwritableError || (err instanceof DiskFullError && err.path.startsWith(audit.dir));
    if (ours && audit.fault()) return delay(job);
    throw err;
  }
}

async function delay(job: Job): Promise<never> {
  await job.moveToDelayed(Date.now() + AUDIT_RETRY_MS, job.token);
  throw new DelayedError();
}

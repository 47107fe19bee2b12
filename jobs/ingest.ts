/**
 * Queue `ingest`: one job per file taken from the inbox (enqueued by src/intake/inbox-intake.ts).
 *
 * Payload: src/queues/ingest.ts { sha256, processingName, mapping?, size?, mtimeMs?, origin? }. The file is
 *   processing/<processingName>; its original name and when it was taken are part of that name
 *   (src/intake/file-mover.ts); size and mtime are as hashed: a file that differs at the end of the read changed
 *   while being read, is not used, and goes back to the inbox (result `changed`).
 * Reads:  the file; the mapping profiles (MAPPINGS_DIR, loaded per job so a new profile needs no restart); the
 *         vendor directory for CATEGORY_CHECK as stored in Redis (with `warn` never waited for: with none stored, a
 *         read starts in the background and the file is not checked; with `hold` and none read yet, it is read first,
 *         waiting at most CATEGORY_CHECK_WAIT_MS, and a file it cannot check is held in the inbox, result
 *         `held-for-vendors`, until the directory is read: src/intake/category-held-files.ts).
 * Writes: one create-rfq job per valid requisition (deterministic ids, so a re-run adds nothing new), only once the
 *         whole file was read without a refusal: until then they are spooled to processing/.<token>.requisitions.jsonl
 *         (src/intake/requisition-spool.ts), deleted after enqueueing or on refusal; the report
 *         outbox/reports/<name>.<sha8>.<token>.xlsx; the move to archive/ (read, even with rejected rows) or failed/
 *         (refused: unreadable, no mapping fits); the file ledger entry (done, or released after a refusal so the
 *         same bytes can be read again once IT fixed the mapping).
 * Errors: a refusal (kind 'data': FileRefusedError, MappingError) is this job's result, never retried. A bad
 *         payload is unrecoverable. A full disk under the reports delays the job until space returns (never fails).
 *         Anything else (Redis down, a broken profile directory) throws and BullMQ retries with back-off. Every step
 *         is idempotent, in this order: enqueue, report, move, ledger (src/intake/ingest-run.ts); a retry after a
 *         crash anywhere finishes the work and creates nothing twice. A file refused part-way (corrupt at the end,
 *         unreadable mid-way) creates nothing, not even the requisitions read before the break. A file in none of
 *         this worker's folders (taken in another data folder: `origin` names the host) fails the job for good
 *         (FileNotHereError): never settled as done, so its requisitions are not lost silently.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { parseJob, ingestQueue } from '../src/queues/index.ts';
import { DiskFullError, FileNotHereError } from '../src/core/index.ts';
import { delayForDiskFull } from '../src/outbox/index.ts';
import { runIngest, type IngestResult, type IngestRunConfig } from '../src/intake/index.ts';
import type { WorkerContext } from '../src/worker/index.ts';
import type { Notifier } from '../src/notify/index.ts';
import { enqueueCreateRfq } from './create-rfq.ts';
import { requisitionAccepted } from './audit-jobs.ts';

/** What this job returns: BullMQ keeps it as the job's return value. */
export type IngestJobResult = IngestResult;

export async function processIngest(
  ctx: Pick<WorkerContext, 'logger' | 'redis' | 'keys' | 'queues'> &
    Partial<Pick<WorkerContext, 'client' | 'audit'>> & {
      config: IngestRunConfig & Pick<WorkerContext['config'], 'JOB_BACKOFF_MS'>;
      notify?: Pick<Notifier, 'emit'>;
    },
  job: Job,
): Promise<IngestJobResult> {
  const payload = parseJob(ingestQueue, job).data;
  try {
    const vendors = ctx.client ? { vendorPort: ctx.client } : {};
    return await runIngest(
      {
        ...ctx,
        ...vendors,
        enqueue: async (r) => {
          await ctx.audit?.write(requisitionAccepted(r, payload.sha256)); // before it is queued: never missing
          return enqueueCreateRfq(ctx.queues, r);
        },
      },
      payload,
      job.id,
    );
  } catch (err) {
    // a full disk under the reports: wait for space (never fails for good); every step is idempotent
    if (err instanceof DiskFullError) return delayForDiskFull(job, err, ctx.config.JOB_BACKOFF_MS, ctx.logger);
    // the file is not here: retrying will not bring it; failed for good, so `failed list` and `status` show it
    if (err instanceof FileNotHereError) throw new UnrecoverableError(err.message);
    throw err;
  }
}

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
import { join } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { parseJob, ingestQueue, parseProcessingName } from '../src/queues/index.ts';
import { DiskFullError, FileNotHereError, type Requisition } from '../src/core/index.ts';
import type { AuditEvent } from '../src/audit/index.ts';
import { delayForDiskFull } from '../src/outbox/index.ts';
import { runIngest, type IngestResult, type IngestRunConfig } from '../src/intake/index.ts';
import type { jobSettings, SettingValues } from '../src/settings/index.ts';
import type { WorkerServices } from '../src/worker/index.ts';
import type { Notifier } from '../src/notify/index.ts';
import { enqueueCreateRfq } from './create-rfq.ts';
import { type AuditLines, type AuditLinesContext, requisitionIdentity } from './audit-lines.ts';

/** What this job returns: BullMQ keeps it as the job's return value. */
export type IngestJobResult = IngestResult;

export async function processIngest(
  ctx: Pick<WorkerServices, 'logger' | 'redis' | 'keys' | 'queues'> &
    Partial<Pick<WorkerServices, 'client' | 'audit'>> & {
      config: IngestRunConfig & Pick<SettingValues<typeof jobSettings>, 'JOB_BACKOFF_MS'>;
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

/** An ingest job's requisition, before it is queued for creation. */
export function requisitionAccepted(r: Requisition, sha256: string): AuditEvent {
  return {
    event: 'requisition-accepted',
    summary: `requisition ${r.profile}/${r.key} accepted (${r.lines.length} line(s)), queued for creation`,
    ...requisitionIdentity(r),
    file_sha256: sha256,
    title: r.title,
    due_date: r.due_date,
  };
}

/** The file taken (before the processor), then what became of it (jobs/audit-lines.ts). */
export const auditLines: AuditLines<IngestJobResult> = {
  async start(_ctx, job) {
    const { sha256, processingName } = parseJob(ingestQueue, job).data;
    const p = parseProcessingName(processingName);
    if (!p || !sha256) return [];
    return [
      {
        event: 'file-taken',
        summary: `file ${p.original} taken from the inbox (sha256 ${sha256.slice(0, 12)}…)`,
        file: p.original,
        file_sha256: sha256,
        processing: processingName,
      },
    ];
  },
  async end(ctx, job, res) {
    return ingestEvents(ctx, parseJob(ingestQueue, job).data.sha256, res);
  },
};

function ingestEvents(ctx: AuditLinesContext, sha: string, res: IngestJobResult): AuditEvent[] {
  const base = { file: res.file, file_sha256: sha, outcome: res.status };
  const report = 'report' in res ? join(ctx.config.folders.reports, res.report) : undefined;
  switch (res.status) {
    case 'done': {
      const out: AuditEvent[] = [
        {
          event: 'file-read',
          summary: `file ${res.file} read${res.profile ? ` with profile ${res.profile}` : ''}: ${res.requisitions} requisition(s) queued, ${res.heldRequisitions} held, ${res.rejectedRows} row(s) rejected; archived`,
          ...base,
          ...(res.profile ? { profile: res.profile } : {}),
          report,
          requisitions: res.requisitions,
          held: res.heldRequisitions,
          rejected_rows: res.rejectedRows,
        },
      ];
      for (const h of res.held ?? [])
        out.push({
          event: 'requisition-held',
          summary: `requisition ${res.profile}/${h.key} of ${res.file} held back: ${h.reason}`,
          ...base,
          ...(res.profile ? { profile: res.profile } : {}),
          key: h.key,
          reason: h.reason,
          report,
        });
      if (res.heldRequisitions > 0 && !res.held)
        out.push({
          event: 'requisition-held',
          summary: `${res.heldRequisitions} requisition(s) of ${res.file} held back${res.firstProblem ? `: ${res.firstProblem}` : ''} (every problem in the report)`,
          ...base,
          held: res.heldRequisitions,
          reason: res.firstProblem,
          report,
        });
      return out;
    }
    case 'refused':
      return [
        { event: 'file-read', summary: `file ${res.file} refused: ${res.reason}`, ...base, reason: res.reason, report },
      ];
    case 'held':
      return [
        { event: 'file-read', summary: `file ${res.file} held: ${res.reason}`, ...base, reason: res.reason, report },
      ];
    case 'held-for-vendors':
      return [
        {
          event: 'requisition-held',
          summary: `${res.requisitions} requisition(s) of ${res.file} held in the inbox: ${res.reason}`,
          ...base,
          held: res.requisitions,
          reason: res.reason,
          report,
        },
      ];
    case 'changed':
      return [{ event: 'file-read', summary: `file ${res.file} changed while read: back in the inbox`, ...base }];
    case 'already-finished':
      return [
        { event: 'file-read', summary: `file ${res.file} finished by an earlier attempt (${res.where})`, ...base },
      ];
  }
}

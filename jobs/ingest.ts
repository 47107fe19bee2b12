/**
 * Queue `ingest`: one job per file taken from the inbox (enqueued by src/intake/inbox-intake.ts).
 *
 * Payload: ingestJobPayloadSchema { sha256, processingName, mapping?, size?, mtimeMs? }. The file is
 *   processing/<processingName>; its original name and when it was taken are part of that name
 *   (src/intake/file-mover.ts); size and mtime are as hashed: a file that differs at the end of the read changed
 *   while being read, is not used, and goes back to the inbox (result `changed`).
 * Reads:  the file; the mapping profiles (MAPPINGS_DIR, loaded per job so a new profile needs no restart).
 * Writes: one create-rfq job per valid requisition (deterministic ids, so a re-run adds nothing new), only once the
 *         whole file was read without a refusal: until then they are spooled to processing/.<token>.requisitions.jsonl
 *         (src/intake/requisition-spool.ts), deleted after enqueueing or on refusal; the report
 *         outbox/reports/<name>.<sha8>.<token>.xlsx; the move to archive/ (read, even with rejected rows) or failed/
 *         (refused: unreadable, no mapping fits); the file ledger entry (done, or released after a refusal so the
 *         same bytes can be read again once IT fixed the mapping).
 * Errors: a refusal (kind 'data': FileRefusedError, MappingError) is this job's result, never retried. A bad
 *         payload is unrecoverable. A full disk under the reports delays the job until space returns (never fails).
 *         Anything else (Redis down, a broken profile directory) throws and BullMQ retries with back-off. Every step is idempotent, in this order: enqueue, report, move, ledger; a
 *         retry after a crash anywhere finishes the work and creates nothing twice. A file refused part-way (corrupt
 *         at the end, unreadable mid-way) creates nothing, not even the requisitions read before the break.
 */
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { DiskFullError, RfqSyncError, formatRowProblem } from '../src/errors.ts';
import { delayForDiskFull } from '../src/intake/disk-full.ts';
import { ingestFile, loadProfiles, writeIngestReport, type IngestSummary } from '../src/ingest/index.ts';
import { exists, finishFile, locateFinished, parseProcessingName, reportFileName, returnToInbox } from '../src/intake/file-mover.ts';
import { writeFileNoticeReport } from '../src/intake/file-report.ts';
import { fileFolders, fileLedger, ingestJobPayloadSchema } from '../src/intake/inbox-intake.ts';
import { openRequisitionSpool, spoolPathFor } from '../src/intake/requisition-spool.ts';
import type { WorkerContext } from '../src/pipeline/context.ts';
import { createIdempotencyStore } from '../src/creation/idempotency-store.ts';
import { previewChanges, type ReexportChange } from '../src/creation/reexport-changes.ts';
import { replicationWait } from '../src/redis/replication.ts';
import { enqueueCreateRfq } from './create-rfq.ts';

/** At most this many changes of re-exported requisitions are listed in a file's report. */
const MAX_REPORTED_CHANGES = 2_000;

export type IngestJobResult =
  | { status: 'done'; file: string; requisitions: number; heldRequisitions: number; rejectedRows: number; report: string; firstProblem?: string }
  /** `discardedRequisitions`: complete requisitions read before the point of failure; none was enqueued. */
  | { status: 'refused'; file: string; reason: string; report: string; discardedRequisitions: number }
  /** An earlier attempt already moved the file (crash after the move): only the ledger was brought up to date. */
  | { status: 'already-finished'; file: string; where: 'archive' | 'failed' | 'missing' }
  /**
   * The file changed while it was being read (still written when taken, or appended after): nothing was used; it
   * went back to the inbox (under `inboxName`) to be taken again once it is stable.
   */
  | { status: 'changed'; file: string; inboxName: string };

export async function processIngest(ctx: Pick<WorkerContext, 'config' | 'logger' | 'redis' | 'keys' | 'queues'>, job: Job): Promise<IngestJobResult> {
  try {
    return await ingestOnce(ctx, job);
  } catch (err) {
    // a full disk under the reports: wait for space (never fails for good); every step is idempotent
    if (err instanceof DiskFullError) return delayForDiskFull(job, err, ctx.config.JOB_BACKOFF_MS, ctx.logger);
    throw err;
  }
}

async function ingestOnce(ctx: Pick<WorkerContext, 'config' | 'logger' | 'redis' | 'keys' | 'queues'>, job: Job): Promise<IngestJobResult> {
  const parsed = ingestJobPayloadSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`ingest job ${job.id}: invalid payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { sha256, processingName, mapping, size, mtimeMs } = parsed.data;
  const file = parseProcessingName(processingName)!; // the schema checked it parses
  const folders = fileFolders(ctx.config);
  const ledger = fileLedger(ctx);
  const report = reportFileName(file, sha256);
  const log = ctx.logger.child({ file: file.original, processing: processingName, sha256, jobId: job.id });

  const spoolPath = spoolPathFor(folders.processing, file.token);
  const earlier = await locateFinished(folders, processingName);
  if (earlier) {
    await rm(spoolPath, { force: true }); // left by an attempt that crashed after the move
    await settleLedger(earlier);
    return { status: 'already-finished', file: file.original, where: earlier };
  }

  const profiles = await loadProfiles(ctx.config.folders.mappings);
  const source = join(folders.processing, processingName);
  let summary: IngestSummary;
  const spool = await openRequisitionSpool(spoolPath);
  try {
    summary = await ingestFile(
      source,
      {
        profiles,
        ...(mapping ? { mappingName: mapping } : {}),
        limits: {
          maxFileBytes: ctx.config.MAX_FILE_BYTES,
          maxXlsxUncompressedBytes: ctx.config.MAX_XLSX_UNCOMPRESSED_BYTES,
          maxXlsxEntries: ctx.config.MAX_XLSX_ENTRIES,
        },
        // The take time, not the clock: a retry computes the same default due dates.
        now: new Date(file.takenAt),
        displayName: file.original,
      },
      (r) => spool.add(r),
    );
  } catch (err) {
    await spool.remove();
    if (!(await exists(source))) {
      // A stalled copy of this job (lost lock) finished the file on another worker while we were reading it.
      const where = (await locateFinished(folders, processingName)) ?? 'missing';
      if (where !== 'missing') await settleLedger(where);
      return { status: 'already-finished', file: file.original, where };
    }
    if (!(err instanceof RfqSyncError) || err.kind !== 'data') throw err;
    if (await changedWhileRead()) return putBack();
    const reason = err.message;
    await writeFileNoticeReport(join(folders.reports, report), {
      file: file.original,
      status: 'refused',
      sha256,
      notes: [
        `The file was not read: ${reason}`,
        spool.count === 0
          ? `Moved to failed/${processingName}; nothing was created from it.`
          : `Moved to failed/${processingName}; nothing was created from it: the ${spool.count} requisition(s) complete before the point of failure were discarded with the file.`,
      ],
    });
    await finishFile(folders, processingName, 'failed');
    await ledger.release(sha256, processingName);
    log.warn({ reason }, 'ingest: file refused, moved to failed/');
    return { status: 'refused', file: file.original, reason, report, discardedRequisitions: spool.count };
  }

  // Decided from the file as it is at the end of the read: one that changed meanwhile is not used at all.
  if (await changedWhileRead()) {
    await spool.remove();
    return putBack();
  }
  // Read through without a refusal: now, and only now, the requisitions go to the service.
  const store = createIdempotencyStore(ctx.redis, ctx.keys);
  const changes: ReexportChange[] = [];
  let changedRequisitions = 0;
  try {
    for await (const r of spool.read()) {
      // a re-export of a requisition whose RFQ exists: what changed goes in this file's report
      const c = await previewChanges(store, r, ctx.config.PUSH_HEADER_CHANGES);
      if (c.length > 0) changedRequisitions++;
      if (changes.length < MAX_REPORTED_CHANGES) changes.push(...c.slice(0, MAX_REPORTED_CHANGES - changes.length));
      await enqueueCreateRfq(ctx.queues, r);
    }
    // under Sentinel: the queued jobs must survive a failover before the file leaves processing/
    const replicas = ctx.config.REDIS_WAIT_REPLICAS ?? 0;
    await replicationWait({ redis: ctx.redis, markKey: ctx.keys.key('replication-mark'), replicas, timeoutMs: ctx.config.REDIS_WAIT_TIMEOUT_MS })(`file ${file.original}: queued requisitions`);
  } finally {
    await spool.remove();
  }

  await writeIngestReport(summary, join(folders.reports, report), {
    notes: [
      `sha256 ${sha256}; moved to archive/${processingName}.`,
      ...(changedRequisitions > 0
        ? [`${changedRequisitions} requisition(s) of this file already have their RFQ and changed since: see the Changes sheet${changes.length >= MAX_REPORTED_CHANGES ? ` (the first ${MAX_REPORTED_CHANGES} changes)` : ''}.`]
        : []),
    ],
    changes,
  });
  await finishFile(folders, processingName, 'archive');
  await ledger.markDone(sha256, processingName, { doneAt: Date.now(), report });
  const counts = { profile: summary.profile, requisitions: summary.requisitions, held: summary.heldRequisitions, rejectedRows: summary.rejectedRows, report };
  const firstError = summary.problems.find((p) => p.severity === 'error');
  const firstProblem = summary.rejectedRows > 0 && firstError ? formatRowProblem(firstError) : undefined;
  if (summary.rejectedRows > 0) {
    // Rows were refused: IT watching warnings must see it, with the first problem in words and where to read the rest.
    log.warn(
      { ...counts, firstProblem },
      `ingest: file read with ${summary.rejectedRows} rejected row(s), ${summary.heldRequisitions} requisition(s) held back, ` +
        `${summary.requisitions} queued for creation; file archived, every problem in outbox/reports/${report}`,
    );
  } else {
    log.info(counts, 'ingest: file read, requisitions queued for creation, file archived');
  }
  return {
    status: 'done',
    file: file.original,
    requisitions: summary.requisitions,
    heldRequisitions: summary.heldRequisitions,
    rejectedRows: summary.rejectedRows,
    report,
    ...(firstProblem !== undefined ? { firstProblem } : {}),
  };

  /** Size or mtime differ from when its bytes were hashed (jobs from before this check carry neither: unchanged). */
  async function changedWhileRead(): Promise<boolean> {
    if (size === undefined || mtimeMs === undefined) return false;
    const now = await lstat(source).catch(() => undefined);
    return now !== undefined && (now.size !== size || now.mtimeMs !== mtimeMs);
  }

  async function putBack(): Promise<IngestJobResult> {
    const inboxName = await returnToInbox(folders, file);
    await ledger.release(sha256, processingName);
    log.warn({ inboxName }, `ingest: ${file.original} changed while it was being read (still being written?): nothing used; back in the inbox as ${inboxName}, taken again once stable`);
    return { status: 'changed', file: file.original, inboxName };
  }

  async function settleLedger(where: 'archive' | 'failed'): Promise<void> {
    if (where === 'archive') await ledger.markDone(sha256, processingName, { doneAt: Date.now(), report });
    else await ledger.release(sha256, processingName);
  }
}

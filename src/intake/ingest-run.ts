/**
 * One taken file from processing/ to requisitions queued for creation, as the ingest job runs it: read the whole file
 * to a spool, and only when it was read without a refusal enqueue every requisition, write the report, move the file
 * to archive/ and mark the ledger, in that order. Every step is idempotent: a retry after a crash anywhere finishes
 * the work and creates nothing twice. A file refused part-way creates nothing, not even the requisitions read before
 * the break; a file that changed while it was read is not used and goes back to the inbox.
 */
import { lstat, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type {
  SettingValues,
  folderSettings,
  Folders,
  redisSettings,
  serviceSettings,
  vendorSettings,
} from '../settings/index.ts';
import {
  FileNotHereError,
  ProfileBrokenError,
  RfqSyncError,
  formatRowProblem,
  type Logger,
  type Requisition,
} from '../core/index.ts';
import { previewChanges, type ReexportChange, requisitionRecords } from '../requisitions/index.ts';
import { ingestFile, loadProfileCatalog, writeIngestReport, type IngestSummary } from '../ingest/index.ts';
import { type RedisKeys, replicationWait } from '../redis/index.ts';
import type { VendorPort } from '../vendors/index.ts';
import { exists, finishFile, locateFinished, reportFileName, returnToInbox } from './file-mover.ts';
import { writeFileNoticeReport } from './file-report.ts';
import { holdInInbox } from './held-files.ts';
import type { HoldInput } from './inbox-hold.ts';
import { holdForVendorDirectory } from './category-held-files.ts';
import { categoryCheckRun, type CategoryCheckRun } from './ingest-category-check.ts';
import { fileFolders, fileLedger } from './inbox-intake.ts';
import { openRequisitionSpool, spoolPathFor, type RequisitionSpool } from './requisition-spool.ts';
import { fileHeld, fileRefused, requisitionHeld } from '../notify/events/index.ts';
import type { Notifier } from '../notify/index.ts';
import { parseProcessingName, type ProcessingName, type IngestJobPayload } from '../queues/index.ts';

/** At most this many changes of re-exported requisitions are listed in a file's report. */
const MAX_REPORTED_CHANGES = 2_000;

export type IngestResult =
  | {
      status: 'done';
      file: string;
      /** The mapping profile that read it (absent on results stored before it was kept). */
      profile?: string;
      requisitions: number;
      heldRequisitions: number;
      rejectedRows: number;
      report: string;
      firstProblem?: string;
      /** The requisitions held back (the first of the report's rows), each with its first problem. */
      held?: Array<{ key: string; reason: string }>;
      /** Requisitions sent although no vendor follows their category (CATEGORY_CHECK=warn), and the first. */
      categoryWarnings?: number;
      firstCategoryWarning?: string;
    }
  /** `discardedRequisitions`: complete requisitions read before the point of failure; none was enqueued. */
  | { status: 'refused'; file: string; reason: string; report: string; discardedRequisitions: number }
  /**
   * Only a broken mapping profile could take the file: back in the inbox (as `inboxName`), not read, with a report
   * naming the profile; taken again once the mapping folder changes (src/intake/held-files.ts).
   */
  | { status: 'held'; file: string; inboxName: string; profiles: string[]; reason: string; report: string }
  /**
   * CATEGORY_CHECK=hold, and the vendor directory could not be read: back in the inbox (as `inboxName`) with a report,
   * none of its `requisitions` sent; taken again once the directory is read (src/intake/category-held-files.ts).
   */
  | {
      status: 'held-for-vendors';
      file: string;
      inboxName: string;
      requisitions: number;
      reason: string;
      report: string;
    }
  /** An earlier attempt already moved the file (crash after the move): only the ledger was brought up to date. */
  | { status: 'already-finished'; file: string; where: 'archive' | 'failed' | 'missing' }
  /**
   * The file changed while it was being read (still written when taken, or appended after): nothing was used; it
   * went back to the inbox (under `inboxName`) to be taken again once it is stable.
   */
  | { status: 'changed'; file: string; inboxName: string };

/** The settings a file's read reads: its limits, the category check, header pushes and replica waits of previews. */
export type IngestRunConfig = Pick<
  SettingValues<typeof folderSettings>,
  'MAX_FILE_BYTES' | 'MAX_XLSX_UNCOMPRESSED_BYTES' | 'MAX_XLSX_ENTRIES' | 'MAX_IN_MEMORY_READ_BYTES'
> &
  Pick<SettingValues<typeof vendorSettings>, 'CATEGORY_CHECK' | 'CATEGORY_CHECK_WAIT_MS'> &
  Pick<SettingValues<typeof serviceSettings>, 'PUSH_HEADER_CHANGES'> &
  Pick<SettingValues<typeof redisSettings>, 'REDIS_WAIT_REPLICAS' | 'REDIS_WAIT_TIMEOUT_MS'> & { folders: Folders };

export interface IngestRunContext {
  config: IngestRunConfig;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  /** Queues one requisition for creation (the create-rfq job's own enqueue, with its deterministic id). */
  enqueue: (r: Requisition) => Promise<unknown>;
  /** Reads the vendor directory when none is stored yet (CATEGORY_CHECK); without it only a stored one is used. */
  vendorPort?: VendorPort;
  /** Tells IT of a refused file or held requisitions (before the file moves: a retry tells again, harmlessly). */
  notify?: Pick<Notifier, 'emit'>;
}

/** One run of a file, its names and where its parts go. */
interface Run {
  ctx: IngestRunContext;
  payload: IngestJobPayload;
  file: ProcessingName;
  folders: ReturnType<typeof fileFolders>;
  ledger: ReturnType<typeof fileLedger>;
  report: string;
  source: string;
  log: Logger;
  /** The mapping folder's hash as loaded for this read. */
  mappingsHash?: string;
}

export async function runIngest(
  ctx: IngestRunContext,
  payload: IngestJobPayload,
  jobId: string | undefined,
): Promise<IngestResult> {
  const { sha256, processingName } = payload;
  const file = parseProcessingName(processingName)!; // the payload schema checked it parses
  const folders = fileFolders(ctx.config);
  const run: Run = {
    ctx,
    payload,
    file,
    folders,
    ledger: fileLedger(ctx),
    report: reportFileName(file, sha256),
    source: join(folders.processing, processingName),
    log: ctx.logger.child({ file: file.original, processing: processingName, sha256, jobId }),
  };
  const spoolPath = spoolPathFor(folders.processing, file.token);
  const earlier = await locateFinished(folders, processingName);
  if (earlier) {
    await rm(spoolPath, { force: true }); // left by an attempt that crashed after the move
    await settleLedger(run, earlier);
    return { status: 'already-finished', file: file.original, where: earlier };
  }
  if (!(await exists(run.source))) return settleMissing(run);
  const spool = await openRequisitionSpool(spoolPath);
  const categories = await categoryCheckRun(ctx);
  let summary: IngestSummary;
  try {
    summary = await readToSpool(run, spool, categories);
  } catch (err) {
    await spool.remove();
    return settleRefusal(run, err, spool.count);
  }
  // Decided from the file as it is at the end of the read: one that changed meanwhile is not used at all.
  if (await changedWhileRead(run)) {
    await spool.remove();
    return putBack(run);
  }
  // never sent unchecked: without a vendor directory, `hold` keeps the whole file until it is read
  if (categories.holdReason !== undefined && summary.requisitions > 0) {
    await spool.remove();
    return holdForVendors(run, summary, categories.holdReason);
  }
  const changes = await enqueueSpooled(run, spool);
  return finishRead(run, summary, changes, categories);
}

async function readToSpool(run: Run, spool: RequisitionSpool, categories: CategoryCheckRun): Promise<IngestSummary> {
  const { config } = run.ctx;
  const catalog = await loadProfileCatalog(config.folders.mappings);
  run.mappingsHash = catalog.hash;
  return ingestFile(
    run.source,
    {
      profiles: catalog.profiles,
      broken: catalog.broken,
      ...(run.payload.mapping ? { mappingName: run.payload.mapping } : {}),
      limits: {
        maxFileBytes: config.MAX_FILE_BYTES,
        maxXlsxUncompressedBytes: config.MAX_XLSX_UNCOMPRESSED_BYTES,
        maxXlsxEntries: config.MAX_XLSX_ENTRIES,
        maxInMemoryBytes: config.MAX_IN_MEMORY_READ_BYTES,
      },
      // The take time, not the clock: a retry computes the same default due dates.
      now: new Date(run.file.takenAt),
      displayName: run.file.original,
      ...(categories.check ? { checkRequisition: categories.check } : {}),
    },
    (r) => spool.add(r),
  );
}

/** The read ended in an error: a refusal of the file (report, failed/), or a retry of the job (rethrown). */
async function settleRefusal(run: Run, err: unknown, discarded: number): Promise<IngestResult> {
  const { file, folders, payload } = run;
  if (!(await exists(run.source))) {
    // A stalled copy of this job (lost lock) finished the file on another worker while we were reading it.
    const where = await locateFinished(folders, payload.processingName);
    if (!where) return settleMissing(run);
    await settleLedger(run, where);
    return { status: 'already-finished', file: file.original, where };
  }
  if (!(err instanceof RfqSyncError) || err.kind !== 'data') throw err;
  if (await changedWhileRead(run)) return putBack(run);
  if (err instanceof ProfileBrokenError) return holdForBrokenProfile(run, err);
  const reason = err.message;
  await writeFileNoticeReport(join(folders.reports, run.report), {
    file: file.original,
    status: 'refused',
    sha256: payload.sha256,
    notes: [
      `The file was not read: ${reason}`,
      discarded === 0
        ? `Moved to failed/${payload.processingName}; nothing was created from it.`
        : `Moved to failed/${payload.processingName}; nothing was created from it: the ${discarded} requisition(s) complete before the point of failure were discarded with the file.`,
    ],
  });
  const where = { take: payload.processingName, report: join(folders.reports, run.report) };
  await run.ctx.notify?.emit(
    fileRefused.event({ file: file.original, reason, failed: join(folders.failed, where.take), ...where }),
  );
  await finishFile(folders, payload.processingName, 'failed');
  await run.ledger.release(payload.sha256, payload.processingName);
  run.log.warn({ reason }, 'ingest: file refused, moved to failed/');
  return { status: 'refused', file: file.original, reason, report: run.report, discardedRequisitions: discarded };
}

/** The file being read, as a hold of it needs it (held-files.ts, category-held-files.ts). */
function holdInput(run: Run): HoldInput {
  const { ctx, file, payload } = run;
  return {
    redis: ctx.redis,
    keys: ctx.keys,
    log: run.log,
    folders: run.folders,
    ledger: run.ledger,
    file,
    sha256: payload.sha256,
    report: run.report,
  };
}

async function holdForBrokenProfile(run: Run, err: ProfileBrokenError): Promise<IngestResult> {
  const { ctx, file, payload } = run;
  const held = await holdInInbox({
    ...holdInput(run),
    err,
    mappingsHash: run.mappingsHash ?? '',
  });
  await ctx.notify?.emit(
    fileHeld.event({
      file: file.original,
      take: payload.processingName,
      profiles: held.profiles.map((p) => `${p.name}: ${p.reason}`),
      inbox: join(run.folders.inbox, held.inboxName),
      report: join(run.folders.reports, run.report),
    }),
  );
  const profiles = held.profiles.map((p) => p.name);
  return {
    status: 'held',
    file: file.original,
    inboxName: held.inboxName,
    profiles,
    reason: err.message,
    report: run.report,
  };
}

async function holdForVendors(run: Run, summary: IngestSummary, reason: string): Promise<IngestResult> {
  const { ctx, file, payload } = run;
  const held = await holdForVendorDirectory({
    ...holdInput(run),
    summary,
    reason,
  });
  const { inboxName, requisitions } = held;
  await ctx.notify?.emit(
    requisitionHeld.event({
      file: file.original,
      take: payload.processingName,
      profile: summary.profile,
      held: requisitions + summary.heldRequisitions,
      rejectedRows: summary.rejectedRows,
      queued: 0,
      firstProblem: `CATEGORY_CHECK=hold: the vendor directory could not be read (${reason}); the file waits in the inbox as ${inboxName} and is read once it is`,
      report: join(run.folders.reports, run.report),
    }),
  );
  return { status: 'held-for-vendors', file: file.original, inboxName, requisitions, reason, report: run.report };
}

/** Read through without a refusal: now, and only now, the requisitions go to the service. */
async function enqueueSpooled(
  run: Run,
  spool: RequisitionSpool,
): Promise<{ list: ReexportChange[]; requisitions: number }> {
  const { ctx } = run;
  const store = requisitionRecords(ctx.redis, ctx.keys);
  const list: ReexportChange[] = [];
  let requisitions = 0;
  try {
    for await (const r of spool.read()) {
      // a re-export of a requisition whose RFQ exists: what changed goes in this file's report
      const c = await previewChanges(store, r, ctx.config.PUSH_HEADER_CHANGES);
      if (c.length > 0) requisitions++;
      if (list.length < MAX_REPORTED_CHANGES) list.push(...c.slice(0, MAX_REPORTED_CHANGES - list.length));
      await ctx.enqueue(r);
    }
    // under Sentinel: the queued jobs must survive a failover before the file leaves processing/
    const replicas = ctx.config.REDIS_WAIT_REPLICAS ?? 0;
    await replicationWait({
      redis: ctx.redis,
      keys: ctx.keys,
      replicas,
      timeoutMs: ctx.config.REDIS_WAIT_TIMEOUT_MS,
    })(`file ${run.file.original}: queued requisitions`);
  } finally {
    await spool.remove();
  }
  return { list, requisitions };
}

/** Report, archive/, ledger, in that order (each idempotent), then the log line IT watches. */
async function finishRead(
  run: Run,
  summary: IngestSummary,
  changes: { list: ReexportChange[]; requisitions: number },
  categories: CategoryCheckRun,
): Promise<IngestResult> {
  const { file, folders, payload, report, log } = run;
  await writeIngestReport(summary, join(folders.reports, report), {
    notes: [
      `sha256 ${payload.sha256}; moved to archive/${payload.processingName}.`,
      ...categories.notes(),
      ...(changes.requisitions > 0
        ? [
            `${changes.requisitions} requisition(s) of this file already have their RFQ and changed since: see the Changes sheet${changes.list.length >= MAX_REPORTED_CHANGES ? ` (the first ${MAX_REPORTED_CHANGES} changes)` : ''}.`,
          ]
        : []),
    ],
    changes: changes.list,
  });
  if (summary.heldRequisitions > 0) await run.ctx.notify?.emit(heldEvent(run, summary));
  await finishFile(folders, payload.processingName, 'archive');
  await run.ledger.markDone(payload.sha256, payload.processingName, { doneAt: Date.now(), report });
  const counts = {
    profile: summary.profile,
    requisitions: summary.requisitions,
    held: summary.heldRequisitions,
    rejectedRows: summary.rejectedRows,
    report,
  };
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
  categories.log(log);
  return {
    status: 'done',
    file: file.original,
    profile: summary.profile,
    requisitions: summary.requisitions,
    heldRequisitions: summary.heldRequisitions,
    rejectedRows: summary.rejectedRows,
    report,
    ...(summary.heldRequisitions > 0 ? { held: heldOf(summary) } : {}),
    ...(firstProblem !== undefined ? { firstProblem } : {}),
    ...(categories.warned > 0
      ? { categoryWarnings: categories.warned, firstCategoryWarning: categories.firstWarning }
      : {}),
  };
}

/** Size or mtime differ from when its bytes were hashed (jobs from before this check carry neither: unchanged). */
async function changedWhileRead(run: Run): Promise<boolean> {
  const { size, mtimeMs } = run.payload;
  if (size === undefined || mtimeMs === undefined) return false;
  const now = await lstat(run.source).catch(() => undefined);
  return now !== undefined && (now.size !== size || now.mtimeMs !== mtimeMs);
}

async function putBack(run: Run): Promise<IngestResult> {
  const inboxName = await returnToInbox(run.folders, run.file);
  await run.ledger.release(run.payload.sha256, run.payload.processingName);
  run.log.warn(
    { inboxName },
    `ingest: ${run.file.original} changed while it was being read (still being written?): nothing used; back in the inbox as ${inboxName}, taken again once stable`,
  );
  return { status: 'changed', file: run.file.original, inboxName };
}

/**
 * The file is in none of this worker's folders. Finished when the ledger says so (archived, since removed by
 * retention) or its bytes went to another file (this one was removed by hand, the same bytes read since); otherwise
 * its work would be lost: the job fails for good, naming the file and where it was looked for.
 */
async function settleMissing(run: Run): Promise<IngestResult> {
  const { file, folders, payload } = run;
  const entry = await run.ledger.get(payload.sha256);
  if (entry?.owner === payload.processingName && entry.state === 'done')
    return { status: 'already-finished', file: file.original, where: 'archive' };
  if (entry && entry.owner !== payload.processingName)
    return { status: 'already-finished', file: file.original, where: 'missing' };
  const o = payload.origin;
  const origin = o
    ? ` It was taken on host ${o.host}${o.folder === 'none' ? '' : ` (data folder ${o.folder.slice(0, 8)})`}; this worker runs on ${hostname()}.`
    : '';
  throw new FileNotHereError(
    `file ${file.original} (${payload.processingName}) is not in this worker's processing folder ${folders.processing}, ` +
      `nor in archive/ or failed/: nothing was read from it, and its requisitions are not created.${origin} A file ` +
      'taken in another data folder (each host with its own RFQ_SYNC_DIR) or removed by hand: put it into the inbox ' +
      'again, and give every worker doing intake the same data folder (or INTAKE=off).',
  );
}

async function settleLedger(run: Run, where: 'archive' | 'failed'): Promise<void> {
  if (where === 'archive')
    await run.ledger.markDone(run.payload.sha256, run.payload.processingName, {
      doneAt: Date.now(),
      report: run.report,
    });
  else await run.ledger.release(run.payload.sha256, run.payload.processingName);
}

/**
 * Each held requisition of the report's rows with its first problem (what `trace` says of it): a requisition with a
 * row held or rejected and none sent (a bad row holds its requisition whole).
 */
function heldOf(summary: IngestSummary): Array<{ key: string; reason: string }> {
  const held = new Map<string, string>();
  const sent = new Set<string>();
  for (const row of summary.rows) {
    if (!row.requisition) continue;
    if (row.status === 'ok' || row.status === 'warning') sent.add(row.requisition);
    if ((row.status !== 'held' && row.status !== 'rejected') || held.has(row.requisition)) continue;
    const problem = row.problems.find((p) => p.severity === 'error') ?? row.problems[0];
    if (problem) held.set(row.requisition, formatRowProblem(problem));
  }
  return [...held].filter(([key]) => !sent.has(key)).map(([key, reason]) => ({ key, reason }));
}

function heldEvent(run: Run, summary: IngestSummary) {
  const firstError = summary.problems.find((p) => p.severity === 'error');
  return requisitionHeld.event({
    file: run.file.original,
    take: run.payload.processingName,
    profile: summary.profile,
    held: summary.heldRequisitions,
    rejectedRows: summary.rejectedRows,
    queued: summary.requisitions,
    ...(firstError ? { firstProblem: formatRowProblem(firstError) } : {}),
    report: join(run.folders.reports, run.report),
  });
}

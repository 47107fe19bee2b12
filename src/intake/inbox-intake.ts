/**
 * From a file in processing/ to an ingest job, or to archive/ as a duplicate. Shared by the inbox watcher (after
 * it took a stable inbox file), by start-up recovery (files a crashed worker left in processing/), and by
 * `rfq-sync ingest FILE` (ingestOneFile).
 *
 * Every step may run twice, on one or two workers, after a crash at any point:
 *   hash -> ledger claim (HSETNX, owner = the unique processing name) -> enqueue (job id from sha256 + take token,
 *   so two enqueues of one taken file are one job) ... or, for a duplicate: report -> archive.
 * Two different drops of the same bytes never both get a job: the ledger lets exactly one of them own the bytes.
 * A drop whose bytes belong to a file still being read is left in processing/ untouched until that first file is
 * finished: archived (the drop is a duplicate) or refused and released (the drop is read on its own). Calling it a
 * duplicate at once would archive, as if read, a copy of a file that is then refused (empty.csv + empty.xlsx).
 * The take token in the job id (not the sha256 alone) lets the same bytes run again after a refusal released them,
 * even while BullMQ still keeps the first, completed job (a re-add of a kept id would be silently ignored); a file
 * still in processing/ whose job completed gets the next generation of its id (src/queues/ingest.ts).
 */
import type { Stats } from 'node:fs';
import { copyFile, lstat, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import type { Redis } from 'ioredis';
import type { SettingValues, folderSettings, Folders, vendorSettings } from '../settings/index.ts';
import { FileRefusedError, type Logger } from '../core/index.ts';
import { FileLedger, type ClaimOutcome, type LedgerEntry } from './file-ledger.ts';
import {
  assertPlainName,
  ensureFolders,
  exists,
  finishFile,
  locateFinished,
  newProcessingName,
  reportFileName,
  sha256File,
  type FileFolders,
} from './file-mover.ts';
import { writeFileNoticeReport } from './file-report.ts';
import { folderId } from './intake-folder.ts';
import type { Queues, RedisKeys } from '../redis/index.ts';
import {
  enqueueIngest,
  type IngestJobPayload,
  isPlainName,
  parseProcessingName,
  type ProcessingName,
} from '../queues/index.ts';
import { fileRefused } from '../notify/events/index.ts';
import type { Notifier } from '../notify/index.ts';

/** The ingest job's payload: src/queues/ingest.ts. */

/** The settings intake reads (src/settings/folders.ts), the account and its resolved folders. */
export type IntakeConfig = Pick<
  SettingValues<typeof folderSettings>,
  'INBOX_DONE_SUFFIX' | 'WATCH_POLLING' | 'WATCH_INTERVAL_MS' | 'FILE_STABLE_MS' | 'SWEEP_CRON'
> &
  Pick<SettingValues<typeof vendorSettings>, 'CATEGORY_CHECK'> & { account: string; folders: Folders };

/** What intake needs of the WorkerContext (a WorkerContext fits). */
export interface IntakeContext {
  config: IntakeConfig;
  logger: Logger;
  redis: Redis;
  keys: Pick<RedisKeys, 'fileLedger' | 'key'>;
  queues: Pick<Queues, 'ingest'>;
  /** Tells IT of a file refused at the door (a symbolic link, unreadable). */
  notify?: Pick<Notifier, 'emit'>;
}

export function fileFolders(config: { folders: FileFolders }): FileFolders {
  const f = config.folders;
  return { inbox: f.inbox, processing: f.processing, archive: f.archive, failed: f.failed, reports: f.reports };
}

export function fileLedger(ctx: Pick<IntakeContext, 'redis' | 'keys'>): FileLedger {
  return new FileLedger(ctx.redis, ctx.keys.fileLedger);
}

export type AdmitResult =
  | { status: 'enqueued'; file: ProcessingName; sha256: string; jobId: string }
  | { status: 'duplicate'; file: ProcessingName; sha256: string; first: LedgerEntry; report: string }
  /**
   * Another file with the same bytes is still being read: this one stays in processing/, untouched, and the
   * recovery sweep admits it again later (read once the first was refused, a duplicate once it was archived).
   */
  | { status: 'waiting'; file: ProcessingName; sha256: string; first: LedgerEntry }
  /** The file left processing/ meanwhile (another worker finished it). */
  | { status: 'gone'; file: ProcessingName }
  /** Not read at all (a symbolic link, not a regular file, unreadable): moved to failed/ with a report saying why. */
  | { status: 'refused'; file: ProcessingName; reason: string; report: string };

/** How long a new drop waits for the file that holds the same bytes to be finished, before it is left to the sweep. */
export const WAIT_FOR_FIRST_COPY_MS = 15_000;
const FIRST_COPY_POLL_MS = 200;

export interface AdmitOptions {
  mapping?: string;
  hashes?: HashCache;
  /** Wait this long for an earlier file with the same bytes still being read (default WAIT_FOR_FIRST_COPY_MS). */
  waitForFirstMs?: number;
}

/**
 * Hash a processing file, claim its bytes, and enqueue its ingest job (or archive it as a duplicate of a file that
 * was read, or leave it waiting while such a file is still being read).
 */
export async function admitProcessingFile(
  ctx: IntakeContext,
  file: ProcessingName,
  opts: AdmitOptions = {},
): Promise<AdmitResult> {
  const folders = fileFolders(ctx.config);
  const path = join(folders.processing, assertPlainName(file.name, 'processing file name'));
  let sha256: string;
  let taken: Stats;
  try {
    // lstat: a symbolic link is judged as the link, never as what it points to
    taken = await lstat(path);
    if (taken.isSymbolicLink())
      return await refuse(
        ctx,
        folders,
        file,
        'it is a symbolic link: links in the inbox are never followed (copy the file itself into the inbox)',
      );
    if (!taken.isFile()) return await refuse(ctx, folders, file, 'it is not a regular file');
    sha256 = await hashOf(path, opts.hashes);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'gone', file };
    if (code === 'EACCES' || code === 'EPERM')
      return refuse(
        ctx,
        folders,
        file,
        `it cannot be read (${code}: permission denied): give the user rfq-sync runs as read access, then drop it again`,
      );
    if (code === 'ELOOP')
      return refuse(
        ctx,
        folders,
        file,
        'it is a symbolic link: links in the inbox are never followed (copy the file itself into the inbox)',
      );
    if (code === 'EISDIR') return refuse(ctx, folders, file, 'it is not a regular file');
    throw err;
  }
  const ledger = fileLedger(ctx);
  const mine = { owner: file.name, name: file.original, seenAt: file.takenAt };
  const deadline = Date.now() + (opts.waitForFirstMs ?? WAIT_FOR_FIRST_COPY_MS);
  let claim: ClaimOutcome;
  for (let waited = false; ; waited = true) {
    claim = await ledger.claim(sha256, mine);
    if (
      claim.outcome === 'duplicate' &&
      claim.entry.state === 'processing' &&
      (await ownerVanished(folders, claim.entry.owner))
    ) {
      // The owner is in none of the folders (removed by hand) or was refused without the ledger hearing of it:
      // nobody will finish these bytes, so this file takes them over instead of being called its duplicate.
      if (await ledger.takeOver(sha256, claim.entry.owner, mine)) {
        ctx.logger.warn(
          { file: file.original, sha256, previousOwner: claim.entry.owner },
          'inbox: the earlier file with these bytes vanished; this one takes its place',
        );
        claim = { outcome: 'claimed', entry: { state: 'processing', ...mine } };
      } else {
        continue; // the entry changed meanwhile: look again
      }
    }
    if (claim.outcome !== 'duplicate' || claim.entry.state === 'done') break;
    // The first file with these bytes is still being read: it may yet be refused (then this one is read on its own).
    if (!waited)
      ctx.logger.info(
        { file: file.original, sha256, first: claim.entry.name },
        'inbox: same bytes as a file still being read; waiting for it to finish',
      );
    if (Date.now() >= deadline) {
      ctx.logger.info(
        { file: file.original, processing: file.name, sha256, first: claim.entry.name },
        'inbox: the file with the same bytes is still being read; this one stays in processing/ for the next sweep',
      );
      return { status: 'waiting', file, sha256, first: claim.entry };
    }
    await new Promise((res) => setTimeout(res, FIRST_COPY_POLL_MS));
    if (!(await exists(join(folders.processing, file.name)))) return { status: 'gone', file };
  }
  if (claim.outcome === 'duplicate') {
    const report = await archiveDuplicate(ctx, folders, file, sha256, claim.entry);
    return { status: 'duplicate', file, sha256, first: claim.entry, report };
  }
  const id = await queueIngestJob(ctx, file, sha256, taken, opts.mapping);
  ctx.logger.info(
    { file: file.original, processing: file.name, sha256, jobId: id, recovered: claim.outcome === 'own' },
    'inbox: file queued for ingest',
  );
  return { status: 'enqueued', file, sha256, jobId: id };
}

/** The ingest job of a file whose bytes it owns; returns the job id. */
async function queueIngestJob(
  ctx: IntakeContext,
  file: ProcessingName,
  sha256: string,
  taken: Stats,
  mapping: string | undefined,
): Promise<string> {
  const payload: IngestJobPayload = {
    sha256,
    processingName: file.name,
    ...(mapping ? { mapping } : {}),
    size: taken.size,
    mtimeMs: taken.mtimeMs,
    // the folder's identity as an intake worker made it (intake-folder.ts); 'none' before one did
    origin: { host: hostname(), folder: (await folderId(ctx.config.folders.root)) ?? 'none' },
  };
  return enqueueIngest(ctx.queues.ingest, payload, file.token);
}

/**
 * sha256 of files already hashed by this process, by path, valid while size and mtime are unchanged: periodic
 * recovery looks at a file stuck in processing/ (its job failed for good) every sweep, and must not read it again.
 */
export class HashCache {
  private readonly entries = new Map<string, { size: number; mtimeMs: number; sha256: string }>();
  private readonly max: number;
  constructor(max = 1_000) {
    this.max = max;
  }
  get(path: string, size: number, mtimeMs: number): string | undefined {
    const e = this.entries.get(path);
    return e && e.size === size && e.mtimeMs === mtimeMs ? e.sha256 : undefined;
  }
  set(path: string, size: number, mtimeMs: number, sha256: string): void {
    this.entries.delete(path);
    this.entries.set(path, { size, mtimeMs, sha256 });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

async function hashOf(path: string, cache: HashCache | undefined): Promise<string> {
  if (!cache) return sha256File(path);
  const before = await stat(path);
  const known = cache.get(path, before.size, before.mtimeMs);
  if (known) return known;
  const sha = await sha256File(path);
  cache.set(path, before.size, before.mtimeMs, sha);
  return sha;
}

/** A file that cannot be read as an export: a report saying why, then failed/; nothing is read or created. */
async function refuse(
  ctx: IntakeContext,
  folders: FileFolders,
  file: ProcessingName,
  reason: string,
): Promise<AdmitResult> {
  const report = reportFileName(file, 'notread0');
  // Report first, move last: the file still in processing/ means "not finished", and recovery redoes both.
  await writeFileNoticeReport(join(folders.reports, report), {
    file: file.original,
    status: 'refused',
    sha256: '(not read)',
    notes: [`The file was not read: ${reason}.`, `Moved to failed/${file.name}; nothing was created from it.`],
  });
  const at = { failed: join(folders.failed, file.name), report: join(folders.reports, report) };
  await ctx.notify?.emit(fileRefused.event({ file: file.original, take: file.name, reason, ...at }));
  await finishFile(folders, file.name, 'failed');
  ctx.logger.warn(
    { file: file.original, processing: file.name, reason, report },
    `inbox: file ${file.original} refused, not read: ${reason}; moved to failed/`,
  );
  return { status: 'refused', file, reason, report };
}

async function ownerVanished(folders: FileFolders, owner: string): Promise<boolean> {
  if (!isPlainName(owner)) return false;
  if (await exists(join(folders.processing, owner))) return false;
  const where = await locateFinished(folders, owner);
  return where === undefined || where === 'failed';
}

/** Same bytes as a file seen before: a report naming the first file, then archive/; nothing is created. */
async function archiveDuplicate(
  ctx: IntakeContext,
  folders: FileFolders,
  file: ProcessingName,
  sha256: string,
  first: LedgerEntry,
): Promise<string> {
  const seen = new Date(first.seenAt).toISOString();
  const how = first.state === 'done' ? 'and was processed' : 'and is being processed';
  const note = `Duplicate file: the same bytes (sha256 ${sha256}) were dropped as "${first.name}" at ${seen} ${how}; nothing was created from this file.`;
  const report = reportFileName(file, sha256);
  // Report first, move last: the file still in processing/ means "not finished", and recovery redoes both.
  await writeFileNoticeReport(join(folders.reports, report), {
    file: file.original,
    status: 'duplicate',
    sha256,
    notes: [note],
  });
  await finishFile(folders, file.name, 'archive');
  ctx.logger.warn(
    { file: file.original, sha256, first: first.name, firstSeenAt: seen, report },
    'inbox: duplicate file archived, nothing created',
  );
  return report;
}

/**
 * Re-admit files a crashed worker left in processing/ (only those at least `minAgeMs` old: a live worker may have
 * just renamed a file and be hashing it; re-admitting it anyway is safe, only wasted work). Names we did not make
 * are left alone and logged.
 */
export async function recoverProcessing(
  ctx: IntakeContext,
  opts: { minAgeMs?: number; now?: number; hashes?: HashCache; warned?: Set<string> } = {},
): Promise<AdmitResult[]> {
  const folders = fileFolders(ctx.config);
  const now = opts.now ?? Date.now();
  const out: AdmitResult[] = [];
  const entries = await readdir(folders.processing, { withFileTypes: true });
  for (const e of entries) {
    if (!(e.isFile() || e.isSymbolicLink()) || e.name.startsWith('.')) continue;
    const file = parseProcessingName(e.name);
    if (!file) {
      // said once per process (the sweep runs every minute)
      if (!opts.warned?.has(e.name))
        ctx.logger.warn(
          { name: e.name, folder: folders.processing },
          'inbox: a file in processing/ was not put there by rfq-sync; left alone',
        );
      opts.warned?.add(e.name);
      continue;
    }
    if (opts.minAgeMs) {
      const st = await lstat(join(folders.processing, e.name)).catch(() => undefined);
      // A rename changes ctime, not mtime: ctime is when the file was taken.
      if (!st || now - st.ctimeMs < opts.minAgeMs) continue;
    }
    // No waiting here: a file whose first copy is still being read is looked at again by the next sweep. One file
    // that cannot be admitted (Redis down, a disk error) never stops the others.
    try {
      out.push(await admitProcessingFile(ctx, file, { hashes: opts.hashes, waitForFirstMs: 0 }));
    } catch (err) {
      ctx.logger.error(
        { err, file: file.original, processing: file.name },
        `inbox: could not admit ${file.original} from processing/: ${(err as Error).message}; the next sweep tries again`,
      );
    }
  }
  const recovered = out.filter((r) => r.status !== 'gone').length;
  if (recovered > 0) ctx.logger.info({ files: recovered }, 'inbox: re-admitted files left in processing/');
  return out;
}

/**
 * `rfq-sync ingest FILE`: submit one file from anywhere, as if it had been dropped in the inbox. The file is copied
 * (`move: true` renames it instead, same file system only) into processing/ under a new name, then admitted.
 */
export async function ingestOneFile(
  ctx: IntakeContext,
  path: string,
  opts: { move?: boolean; mapping?: string; now?: number; waitForFirstMs?: number } = {},
): Promise<AdmitResult> {
  const folders = fileFolders(ctx.config);
  await ensureFolders(folders);
  const st = await stat(path);
  if (!st.isFile()) throw new FileRefusedError(path, 'is not a regular file');
  const file = newProcessingName(basename(path), opts.now ?? Date.now());
  const target = join(folders.processing, file.name);
  if (opts.move) {
    await rename(path, target);
  } else {
    // Copy under a dot-name first: recovery on another worker ignores it until the rename makes it whole.
    const tmp = join(folders.processing, `.${file.token}.tmp`);
    try {
      await copyFile(path, tmp);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
  return admitProcessingFile(ctx, file, {
    mapping: opts.mapping,
    ...(opts.waitForFirstMs === undefined ? {} : { waitForFirstMs: opts.waitForFirstMs }),
  });
}

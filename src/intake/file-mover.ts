/**
 * The life of an input file on disk: inbox/ -> processing/ -> archive/ (done) or failed/ (unreadable).
 *
 * Every move is one rename(2) inside one file system, so it is atomic: when several workers (on one or many hosts)
 * see the same inbox file, the one whose rename succeeds owns it and the others get ENOENT. A taken file gets a
 * unique name in processing/ that still carries the original name (`<token>_<original>`, token = UTC time + 6 random
 * hex), and keeps that name in archive/ and failed/, so a retried job can find where an earlier attempt put it.
 *
 * Names come from the file system or from job payloads: they are checked to be plain names (no separator, no `..`)
 * before any path is built from them, so no path ever leaves the configured folders. An inbox name may hold a
 * backslash (a plain character on Linux and NFS: `x\..\..\evil.csv` is one name): it is taken all the same, under a
 * processing name with every `\` written `%5C` (and `%` as `%25`), marked by `~` after the token instead of `_`, so
 * no name past the inbox holds a backslash while the original name still reads back from it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, stat } from 'node:fs/promises';
import { basename, extname, join, sep } from 'node:path';
import { safeFileName, CrossDeviceError, UnexpectedError } from '../core/index.ts';
import { decodeBackslashes, isPlainName, type ProcessingName } from '../queues/index.ts';

// the processing name's format is part of the ingest queue's contract: it lives beside it, read back from there

/** Names the inbox never takes: Office/LibreOffice lock files, partial downloads and copies, dotfiles. */
const IGNORED_SUFFIXES = ['.tmp', '.part', '.partial', '.filepart', '.crdownload'];

/** True for a name the inbox should take (it is still subject to the stability check). */
export function isInboxCandidate(name: string): boolean {
  if (!isInboxName(name)) return false;
  if (name.startsWith('.')) return false; // dotfiles, `.~lock.x.xlsx#`, our own `.x.tmp` atomic-write temps
  if (name.startsWith('~$')) return false; // Office owner files
  const lower = name.toLowerCase();
  return !IGNORED_SUFFIXES.some((s) => lower.endsWith(s));
}

/**
 * A name as the inbox may hold it: a plain name, or one holding backslashes where they are no separator (POSIX
 * paths). Only ever joined to the inbox folder, and only by takeInboxFile.
 */
export function isInboxName(name: string): boolean {
  if (isPlainName(name)) return true;
  return (
    sep === '/' &&
    name.length > 0 &&
    name !== '.' &&
    name !== '..' &&
    !/[/\u0000]/.test(name) &&
    isPlainName(encodeBackslashes(name))
  );
}

function encodeBackslashes(name: string): string {
  return name.replace(/[%\\]/g, (c) => (c === '%' ? '%25' : '%5C'));
}

export function assertPlainName(name: string, what: string): string {
  if (!isPlainName(name))
    throw new UnexpectedError(`${what} is not a plain file name: ${JSON.stringify(name.slice(0, 200))}`);
  return name;
}

// ---------------------------------------------------------------- processing names

/** Most file systems allow 255 bytes per name; the token and `_` take 24. */
const MAX_NAME_BYTES = 255;

export function newProcessingName(original: string, now = Date.now()): ProcessingName {
  if (!isInboxName(original)) assertPlainName(original, 'inbox file name');
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const token = `${stamp}-${randomBytes(3).toString('hex')}`;
  if (isPlainName(original)) {
    const kept = fitName(original, MAX_NAME_BYTES - token.length - 1);
    return { name: `${token}_${kept}`, token, original: kept, takenAt: now };
  }
  // Shortening may cut an escape in two: drop the piece, so the name still decodes to a prefix of the original.
  const kept = fitName(encodeBackslashes(original), MAX_NAME_BYTES - token.length - 1).replace(
    /%[0-9A-F]?(?=\.[^.]*$|$)/,
    '',
  );
  return { name: `${token}~${kept}`, token, original: decodeBackslashes(kept), takenAt: now };
}

/** Shorten a name to `maxBytes` of UTF-8, keeping its extension (the readers choose by extension). */
function fitName(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const ext = extname(name).slice(0, 16);
  let stem = name.slice(0, name.length - ext.length);
  while (stem.length > 1 && Buffer.byteLength(stem + ext) > maxBytes) stem = stem.slice(0, -1);
  return stem + ext;
}

/** Report file name for one taken file: original stem + short hash + take token, safe on any share. */
export function reportFileName(p: ProcessingName, sha256: string): string {
  const stem = basename(p.original, extname(p.original)).slice(0, 80);
  return safeFileName(`${stem}.${sha256.slice(0, 8)}.${p.token}.xlsx`, 160);
}

// ---------------------------------------------------------------- moves

export interface FileFolders {
  inbox: string;
  processing: string;
  archive: string;
  failed: string;
  reports: string;
}

export async function ensureFolders(f: FileFolders): Promise<void> {
  for (const dir of [f.inbox, f.processing, f.archive, f.failed, f.reports]) await mkdir(dir, { recursive: true });
}

function isCode(err: unknown, ...codes: string[]): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && codes.includes(code);
}

export type TakeResult =
  | { taken: true; file: ProcessingName }
  | { taken: false; reason: 'gone' }
  | { taken: false; reason: 'busy'; code: string };

/**
 * Take an inbox file: rename it into processing/ under a unique name. `gone`: another worker won the rename (or the
 * file was removed); `busy`: the writer still holds it open (Windows shares refuse the rename): try again later.
 */
export async function takeInboxFile(f: FileFolders, inboxName: string, now = Date.now()): Promise<TakeResult> {
  if (!isInboxName(inboxName)) assertPlainName(inboxName, 'inbox file name');
  const p = newProcessingName(inboxName, now);
  try {
    await rename(join(f.inbox, inboxName), join(f.processing, p.name));
  } catch (err) {
    if (isCode(err, 'ENOENT')) return { taken: false, reason: 'gone' };
    if (isCode(err, 'EBUSY', 'EPERM', 'EACCES'))
      return { taken: false, reason: 'busy', code: (err as NodeJS.ErrnoException).code! };
    if (isCode(err, 'EXDEV')) {
      throw new CrossDeviceError(
        `cannot move ${inboxName} from ${f.inbox} to ${f.processing}: inbox and processing must be on the same file system (an atomic rename is what keeps two workers from taking the same file)`,
        { cause: err },
      );
    }
    throw err;
  }
  return { taken: true, file: p };
}

export type FinalFolder = 'archive' | 'failed';

/**
 * Move a processing file to archive/ or failed/ under the same name. Idempotent: when the file is already there
 * (a retried job after a crash), it is a no-op. Returns where the file now is, or 'missing' when it is nowhere.
 */
export async function finishFile(
  f: FileFolders,
  processingName: string,
  to: FinalFolder,
): Promise<FinalFolder | 'missing'> {
  assertPlainName(processingName, 'processing file name');
  const target = join(f[to], processingName);
  try {
    await rename(join(f.processing, processingName), target);
    return to;
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  return (await locateFinished(f, processingName)) ?? 'missing';
}

/**
 * Put a taken file back into the inbox (it changed while it was being read): under its original name when that is
 * free, else under its processing name, so the watcher takes it again once it is stable.
 */
export async function returnToInbox(f: FileFolders, p: ProcessingName): Promise<string> {
  assertPlainName(p.name, 'processing file name');
  const plain = isPlainName(p.original) ? p.original : p.name;
  const name = (await exists(join(f.inbox, plain))) ? p.name : plain;
  await rename(join(f.processing, p.name), join(f.inbox, name));
  return name;
}

/** Where an earlier attempt left a file that is no longer in processing/. */
export async function locateFinished(f: FileFolders, processingName: string): Promise<FinalFolder | undefined> {
  assertPlainName(processingName, 'processing file name');
  for (const where of ['archive', 'failed'] as const) {
    if (await exists(join(f[where], processingName))) return where;
  }
  return undefined;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isCode(err, 'ENOENT', 'ENOTDIR')) return false;
    throw err;
  }
}

/** sha256 of a file, hex, read as a stream (memory stays flat whatever the size). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  // O_NOFOLLOW: a symbolic link is never read through (ELOOP), whatever put it there
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false }))
      hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

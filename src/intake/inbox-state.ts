/**
 * What one inbox watcher keeps between events: the per-file trackers, the files taken but not queued, the caches
 * its sweeps share. The watcher's steps (inbox-tracker.ts, inbox-admission.ts, inbox-sweep.ts) all take it.
 */
import { resolve } from 'node:path';
import type { FileFolders } from './file-mover.ts';
import { HashCache, type AdmitResult, type IntakeContext } from './inbox-intake.ts';
import type { ProcessingName } from '../queues/index.ts';

/** The watcher options its steps read, looked up at each use (the caller's object, as passed). */
export interface InboxStepOptions {
  waitForFirstCopyMs?: number;
  onAdmitted?: (result: AdmitResult) => void;
}

export interface Tracker {
  size: number;
  mtimeMs: number;
  /** Since when size and mtime have been what they are. */
  since: number;
  timer: NodeJS.Timeout | undefined;
  waiters: Array<() => void>;
  /** The rename has begun: a new event for the name now means a new file of the same name. */
  taking: boolean;
  again: boolean;
  /** Renames refused because the file is locked. */
  busy: number;
}

export interface InboxWatcherState {
  ctx: IntakeContext;
  opts: InboxStepOptions;
  folders: FileFolders;
  /** The inbox, resolved. */
  inbox: string;
  stableMs: number;
  /** How long an empty file must stay empty before it is taken. */
  emptyMs: number;
  recoverAfterMs: number;
  trackers: Map<string, Tracker>;
  hashes: HashCache;
  /** Foreign names in processing/ already warned about (once per process, not every sweep). */
  warned: Set<string>;
  /**
   * Files taken into processing/ but not queued: their admission failed (Redis down), or they are copies waiting for
   * the first file with their bytes to be read. Every sweep tries them again at once, not after recoverAfterMs.
   */
  unadmitted: Map<string, ProcessingName>;
  inFlight: Set<Promise<void>>;
  closed: boolean;
}

/**
 * An empty file is taken only after it stayed empty this many times FILE_STABLE_MS (20 s by default): an export that
 * creates its file first and writes it later must not be taken, and refused, at 0 bytes.
 */
const EMPTY_FACTOR = 10;

export function createInboxState(
  ctx: IntakeContext,
  opts: InboxStepOptions & { recoverAfterMs?: number },
  folders: FileFolders,
): InboxWatcherState {
  const stableMs = ctx.config.FILE_STABLE_MS;
  return {
    ctx,
    opts,
    folders,
    inbox: resolve(folders.inbox),
    stableMs,
    emptyMs: stableMs * EMPTY_FACTOR,
    recoverAfterMs: opts.recoverAfterMs ?? 10 * 60_000,
    trackers: new Map(),
    hashes: new HashCache(),
    warned: new Set(),
    unadmitted: new Map(),
    inFlight: new Set(),
    closed: false,
  };
}

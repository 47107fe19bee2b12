/**
 * The watched inbox. Files dropped in INBOX_DIR are taken once their size and mtime have not changed for
 * FILE_STABLE_MS (our own check: chokidar's awaitWriteFinish is unreliable on NTFS and network shares), then moved
 * into processing/ and admitted (hash, ledger, ingest job: inbox-intake.ts).
 *
 * Events come from chokidar (native, or polling every WATCH_INTERVAL_MS when WATCH_POLLING is on, for SMB/NFS
 * shares where events do not arrive). chokidar may report a file twice or miss one, so a periodic sweep
 * (SWEEP_CRON) lists the inbox too, and re-admits files a crashed worker left in processing/. Both feed the same
 * per-file tracker, so one process never checks a file twice at once; between processes, the rename decides.
 * Only plain files directly in the inbox count: subfolders, dotfiles and temp/lock files are ignored.
 */
import { once } from 'node:events';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import cron, { type ScheduledTask } from 'node-cron';
import { ensureFolders, isInboxCandidate, takeInboxFile, type ProcessingName } from './file-mover.ts';
import {
  admitProcessingFile,
  fileFolders,
  HashCache,
  recoverProcessing,
  type AdmitResult,
  type IntakeContext,
} from './inbox-intake.ts';

export interface InboxWatcherOptions {
  /** Listen to file-system events (chokidar). Default true; false: sweeps only (the `once` command). */
  watch?: boolean;
  /** Run the SWEEP_CRON schedule. Default true. */
  schedule?: boolean;
  /** Re-admit files left in processing/ at start. Default true. */
  recoverAtStart?: boolean;
  /** Each sweep re-admits processing/ files taken at least this long ago (a crashed peer's). Default 10 minutes. */
  recoverAfterMs?: number;
  /** How long a copy waits, when taken, for the first file with its bytes to be read (default WAIT_FOR_FIRST_COPY_MS). */
  waitForFirstCopyMs?: number;
  /** Called after each file is settled (tests, metrics). */
  onAdmitted?: (result: AdmitResult) => void;
}

export interface InboxWatcher {
  /**
   * List the inbox now and take every file found once it is stable; resolves when each of them has been taken,
   * archived as a duplicate, or has gone (a file that keeps changing keeps this waiting).
   */
  sweep(): Promise<void>;
  /** Stop watching and sweeping; waits for files being taken right now. */
  close(): Promise<void>;
}

interface Tracker {
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

/** A file the writer still holds open (Windows shares refuse the rename) is tried again this often, this many times. */
const BUSY_RETRY_MS = 1_000;
const BUSY_TRIES = 30;
/**
 * An empty file is taken only after it stayed empty this many times FILE_STABLE_MS (20 s by default): an export that
 * creates its file first and writes it later must not be taken, and refused, at 0 bytes.
 */
const EMPTY_FACTOR = 10;

export async function startInboxWatcher(ctx: IntakeContext, opts: InboxWatcherOptions = {}): Promise<InboxWatcher> {
  const { config, logger } = ctx;
  const folders = fileFolders(config);
  const inbox = resolve(folders.inbox);
  const stableMs = config.FILE_STABLE_MS;
  const recoverAfterMs = opts.recoverAfterMs ?? 10 * 60_000;
  await ensureFolders(folders);

  const trackers = new Map<string, Tracker>();
  const hashes = new HashCache();
  /** Foreign names in processing/ already warned about (once per process, not every sweep). */
  const warned = new Set<string>();
  /**
   * Files taken into processing/ but not queued: their admission failed (Redis down), or they are copies waiting for
   * the first file with their bytes to be read. Every sweep tries them again at once, not after recoverAfterMs.
   */
  const unadmitted = new Map<string, ProcessingName>();
  const emptyMs = stableMs * EMPTY_FACTOR;
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  const settle = (name: string): void => {
    const t = trackers.get(name);
    if (!t) return;
    if (t.timer) clearTimeout(t.timer);
    trackers.delete(name);
    for (const w of t.waiters) w();
    if (t.again && !closed) void observe(name);
  };

  const schedule = (name: string, t: Tracker, delayMs: number): void => {
    if (closed) return settle(name);
    t.timer = setTimeout(
      () => {
        t.timer = undefined;
        const p = check(name, t).catch((err: unknown) => {
          logger.error({ err, file: name }, 'inbox: could not take file; the next sweep tries again');
          settle(name);
        });
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      },
      Math.max(0, delayMs),
    );
  };

  const check = async (name: string, t: Tracker): Promise<void> => {
    if (closed) return settle(name);
    // lstat: a symbolic link is taken as the link (and refused by admission), never followed
    const st = await lstat(join(inbox, name)).catch(() => undefined);
    if (!st || !(st.isFile() || st.isSymbolicLink())) return settle(name);
    const now = Date.now();
    if (st.size !== t.size || st.mtimeMs !== t.mtimeMs) {
      t.size = st.size;
      t.mtimeMs = st.mtimeMs;
      t.since = now;
      // A little jitter: workers on several hosts then do not all stat and rename the same file in lockstep.
      return schedule(name, t, stableMs + Math.floor(Math.random() * Math.min(250, stableMs / 4)));
    }
    const needed = st.size === 0 && st.isFile() ? emptyMs : stableMs;
    if (now - t.since < needed) return schedule(name, t, needed - (now - t.since));
    t.taking = true;
    const took = await takeInboxFile(folders, name);
    if (!took.taken) {
      if (took.reason === 'busy') {
        t.taking = false;
        if (++t.busy >= BUSY_TRIES) {
          // Not a writer that will let go soon (permissions?): say so, and leave it to the periodic sweep.
          logger.warn(
            { file: name, code: took.code },
            'inbox: cannot move the file into processing/ (locked or not permitted); the next sweep tries again',
          );
          return settle(name);
        }
        t.since = Date.now();
        return schedule(name, t, Math.max(stableMs, BUSY_RETRY_MS));
      }
      return settle(name); // another worker won the rename
    }
    logger.info({ file: name, processing: took.file.name }, 'inbox: file taken');
    try {
      await admit(took.file);
    } finally {
      settle(name);
    }
  };

  /**
   * Admit a taken file; when that fails (Redis down), or the file is a copy still waiting for its first, the next
   * sweep tries again at once, not after recoverAfterMs. A sweep's try does not wait: it looks once.
   */
  const admit = async (file: ProcessingName, waitForFirstMs = opts.waitForFirstCopyMs): Promise<void> => {
    try {
      const result = await admitProcessingFile(ctx, file, waitForFirstMs !== undefined ? { waitForFirstMs } : {});
      if (result.status === 'waiting') unadmitted.set(file.name, file);
      else unadmitted.delete(file.name);
      opts.onAdmitted?.(result);
    } catch (err) {
      unadmitted.set(file.name, file);
      logger.error(
        { err, file: file.original, processing: file.name },
        `inbox: ${file.original} was taken but could not be queued (${(err as Error).message}); the next sweep tries again`,
      );
    }
  };

  /** The files whose admission failed, tried again (each sweep, before anything else). */
  const readmit = async (): Promise<void> => {
    for (const file of [...unadmitted.values()]) await admit(file, 0);
  };

  /** Start (or join) the stability check of one inbox file; resolves when the file is settled. */
  function observe(name: string): Promise<void> {
    if (closed || !isInboxCandidate(name)) return Promise.resolve();
    let t = trackers.get(name);
    if (t?.taking) t.again = true;
    if (!t) {
      t = { size: -1, mtimeMs: -1, since: 0, timer: undefined, waiters: [], taking: false, again: false, busy: 0 };
      trackers.set(name, t);
      schedule(name, t, 0);
    }
    const tracker = t;
    return new Promise((res) => tracker.waiters.push(res));
  }

  const listInbox = async (): Promise<string[]> => {
    const entries = await readdir(inbox, { withFileTypes: true });
    // symbolic links too: they are taken to be refused (a report, failed/), not left in the inbox unexplained
    return entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && isInboxCandidate(e.name)).map((e) => e.name);
  };

  const sweep = async (): Promise<void> => {
    if (closed) return;
    await readmit();
    const names = await listInbox();
    await Promise.all([
      ...names.map((n) => observe(n)),
      recoverProcessing(ctx, { minAgeMs: recoverAfterMs, hashes, warned }).then((rs) =>
        rs.forEach((r) => opts.onAdmitted?.(r)),
      ),
    ]);
  };

  if (opts.recoverAtStart ?? true) {
    for (const r of await recoverProcessing(ctx, { minAgeMs: 0, hashes, warned })) opts.onAdmitted?.(r);
  }

  let watcher: FSWatcher | undefined;
  if (opts.watch ?? true) {
    // chokidar may report paths through the real path of a symlinked inbox: accept both spellings.
    const real = await realpath(inbox);
    const isInbox = (dir: string): boolean => dir === inbox || dir === real;
    // the real path: with followSymlinks off, an inbox that is itself a link (a mounted share) is still watched
    watcher = watch(real, {
      depth: 0,
      ignoreInitial: true, // files present at start: the first sweep below
      backend: config.WATCH_POLLING ? 'polling' : 'auto',
      pollingInterval: config.WATCH_INTERVAL_MS,
      atomic: false,
      followSymlinks: false, // a link is reported as itself (and refused), never as what it points to
      ignored: (path: string, stats) => {
        const p = resolve(path);
        if (isInbox(p)) return false;
        if (!isInbox(dirname(p))) return true;
        if (stats?.isDirectory()) return true;
        return !isInboxCandidate(basename(p));
      },
    });
    const onFile = (path: string): void => {
      const p = resolve(path);
      if (isInbox(dirname(p))) void observe(basename(p));
    };
    watcher.on('add', onFile);
    watcher.on('change', onFile);
    watcher.on('error', (err) => logger.error({ err }, 'inbox: watcher error; the periodic sweep keeps going'));
    await once(watcher, 'ready');
  }

  let task: ScheduledTask | undefined;
  if (opts.schedule ?? true) {
    task = cron.schedule(
      config.SWEEP_CRON,
      async () => {
        if (closed) return;
        const run = (async () => {
          await readmit();
          // Files are not awaited to the end: one still being written must not block the next sweeps.
          for (const n of await listInbox()) void observe(n);
          for (const r of await recoverProcessing(ctx, { minAgeMs: recoverAfterMs, hashes, warned }))
            opts.onAdmitted?.(r);
        })();
        const tracked = run.catch(() => undefined);
        inFlight.add(tracked);
        try {
          await run; // a failure is logged by the execution:failed handler below
        } finally {
          inFlight.delete(tracked);
        }
      },
      { name: 'inbox-sweep', noOverlap: true },
    );
    task.on('execution:failed', (c) => logger.error({ err: c.execution?.error }, 'inbox: sweep failed'));
  }

  // Files already there at start (chokidar runs with ignoreInitial).
  void listInbox()
    .then((names) => names.forEach((n) => void observe(n)))
    .catch((err: unknown) => logger.error({ err }, 'inbox: cannot list the inbox'));
  logger.info({ inbox, polling: config.WATCH_POLLING, stableMs, sweep: config.SWEEP_CRON }, 'inbox: watching');

  return {
    sweep,
    async close() {
      if (closed) return;
      closed = true;
      await task?.destroy();
      await watcher?.close();
      for (const [name, t] of trackers) if (t.timer) settle(name);
      await Promise.allSettled([...inFlight]);
      for (const name of [...trackers.keys()]) settle(name);
    },
  };
}

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
 * The steps, each taking the watcher's state (inbox-state.ts): inbox-tracker.ts (the stability check and the take),
 * inbox-admission.ts, inbox-sweep.ts, inbox-events.ts.
 */
import type { FSWatcher } from 'chokidar';
import type { ScheduledTask } from 'node-cron';
import { ensureFolders } from './file-mover.ts';
import { fileFolders, type AdmitResult, type IntakeContext } from './inbox-intake.ts';
import { recoverTaken } from './inbox-admission.ts';
import { watchInboxEvents } from './inbox-events.ts';
import { createInboxState } from './inbox-state.ts';
import { listInbox, scheduleSweeps, sweepInbox } from './inbox-sweep.ts';
import { observeInboxFile, settleInboxFile } from './inbox-tracker.ts';

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

export async function startInboxWatcher(ctx: IntakeContext, opts: InboxWatcherOptions = {}): Promise<InboxWatcher> {
  const { config, logger } = ctx;
  const folders = fileFolders(config);
  await ensureFolders(folders);
  const s = createInboxState(ctx, opts, folders);

  if (opts.recoverAtStart ?? true) {
    for (const r of await recoverTaken(s, 0)) opts.onAdmitted?.(r);
  }
  const watcher: FSWatcher | undefined = (opts.watch ?? true) ? await watchInboxEvents(s) : undefined;
  const task: ScheduledTask | undefined = (opts.schedule ?? true) ? scheduleSweeps(s) : undefined;

  // Files already there at start (chokidar runs with ignoreInitial).
  void listInbox(s)
    .then((names) => names.forEach((n) => void observeInboxFile(s, n)))
    .catch((err: unknown) => logger.error({ err }, 'inbox: cannot list the inbox'));
  logger.info(
    { inbox: s.inbox, polling: config.WATCH_POLLING, stableMs: s.stableMs, sweep: config.SWEEP_CRON },
    'inbox: watching',
  );

  return {
    sweep: () => sweepInbox(s),
    async close() {
      if (s.closed) return;
      s.closed = true;
      await task?.destroy();
      await watcher?.close();
      for (const [name, t] of s.trackers) if (t.timer) settleInboxFile(s, name);
      await Promise.allSettled([...s.inFlight]);
      for (const name of [...s.trackers.keys()]) settleInboxFile(s, name);
    },
  };
}

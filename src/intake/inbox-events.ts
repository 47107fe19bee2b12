/**
 * The inbox's file-system events (chokidar: native, or polling every WATCH_INTERVAL_MS when WATCH_POLLING is on, for
 * SMB/NFS shares where events do not arrive). Only plain files directly in the inbox are passed on.
 */
import { once } from 'node:events';
import { realpath } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isInboxCandidate } from './file-mover.ts';
import type { InboxWatcherState } from './inbox-state.ts';
import { observeInboxFile } from './inbox-tracker.ts';

/** Watch the inbox; resolves once chokidar is ready. */
export async function watchInboxEvents(s: InboxWatcherState): Promise<FSWatcher> {
  const { config, logger } = s.ctx;
  const { inbox } = s;
  // chokidar may report paths through the real path of a symlinked inbox: accept both spellings.
  const real = await realpath(inbox);
  const isInbox = (dir: string): boolean => dir === inbox || dir === real;
  // the real path: with followSymlinks off, an inbox that is itself a link (a mounted share) is still watched
  const watcher = watch(real, {
    depth: 0,
    ignoreInitial: true, // files present at start: the first sweep (startInboxWatcher)
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
    if (isInbox(dirname(p))) void observeInboxFile(s, basename(p));
  };
  watcher.on('add', onFile);
  watcher.on('change', onFile);
  watcher.on('error', (err) => logger.error({ err }, 'inbox: watcher error; the periodic sweep keeps going'));
  await once(watcher, 'ready');
  return watcher;
}

/**
 * The per-file stability check of the inbox: a file is taken into processing/ once its size and mtime stayed still
 * for FILE_STABLE_MS. Events and sweeps both come through observeInboxFile, so one process never checks a file twice.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { isInboxCandidate, takeInboxFile } from './file-mover.ts';
import { admitTaken } from './inbox-admission.ts';
import { stillHeld } from './held-files.ts';
import { stillHeldForVendors } from './category-held-files.ts';
import type { InboxWatcherState, Tracker } from './inbox-state.ts';
import { doneMarkerGate, markedFile, removeDoneMarker } from './inbox-done-marker.ts';

/** A file the writer still holds open (Windows shares refuse the rename) is tried again this often, this many times. */
const BUSY_RETRY_MS = 1_000;
const BUSY_TRIES = 30;

/** Start (or join) the stability check of one inbox file; resolves when the file is settled. */
export function observeInboxFile(s: InboxWatcherState, seen: string): Promise<void> {
  const name = markedFile(s, seen) ?? seen; // a done marker: its export is looked at
  if (s.closed || !isInboxCandidate(name)) return Promise.resolve();
  let t = s.trackers.get(name);
  if (t?.taking) t.again = true;
  if (!t) {
    t = { size: -1, mtimeMs: -1, since: 0, timer: undefined, waiters: [], taking: false, again: false, busy: 0 };
    s.trackers.set(name, t);
    scheduleCheck(s, name, t, 0);
  }
  const tracker = t;
  return new Promise((res) => tracker.waiters.push(res));
}

/** The file is done with (taken, gone, given up on): its waiters are released, and a new event for it looked at. */
export function settleInboxFile(s: InboxWatcherState, name: string): void {
  const t = s.trackers.get(name);
  if (!t) return;
  if (t.timer) clearTimeout(t.timer);
  s.trackers.delete(name);
  for (const w of t.waiters) w();
  if (t.again && !s.closed) void observeInboxFile(s, name);
}

function scheduleCheck(s: InboxWatcherState, name: string, t: Tracker, delayMs: number): void {
  if (s.closed) return settleInboxFile(s, name);
  t.timer = setTimeout(
    () => {
      t.timer = undefined;
      const p = checkInboxFile(s, name, t).catch((err: unknown) => {
        s.ctx.logger.error({ err, file: name }, 'inbox: could not take file; the next sweep tries again');
        settleInboxFile(s, name);
      });
      s.inFlight.add(p);
      void p.finally(() => s.inFlight.delete(p));
    },
    Math.max(0, delayMs),
  );
}

async function checkInboxFile(s: InboxWatcherState, name: string, t: Tracker): Promise<void> {
  if (s.closed) return settleInboxFile(s, name);
  // lstat: a symbolic link is taken as the link (and refused by admission), never followed
  const st = await lstat(join(s.inbox, name)).catch(() => undefined);
  if (!st || !(st.isFile() || st.isSymbolicLink())) return settleInboxFile(s, name);
  const gate = await doneMarkerGate(s, name, st);
  if (gate === 'wait') return settleInboxFile(s, name);
  if (gate === 'stable' && stillSettling(s, name, t, st)) return;
  if (await stillHeld(s.ctx, name, st)) return settleInboxFile(s, name); // waits for its broken profile
  if (await stillHeldForVendors(s.ctx, name, st)) return settleInboxFile(s, name); // waits for the vendor directory
  t.taking = true;
  const took = await takeInboxFile(s.folders, name);
  if (!took.taken) {
    if (took.reason === 'busy') {
      t.taking = false;
      if (++t.busy >= BUSY_TRIES) {
        // Not a writer that will let go soon (permissions?): say so, and leave it to the periodic sweep.
        s.ctx.logger.warn(
          { file: name, code: took.code },
          'inbox: cannot move the file into processing/ (locked or not permitted); the next sweep tries again',
        );
        return settleInboxFile(s, name);
      }
      t.since = Date.now();
      return scheduleCheck(s, name, t, Math.max(s.stableMs, BUSY_RETRY_MS));
    }
    return settleInboxFile(s, name); // another worker won the rename
  }
  s.ctx.logger.info({ file: name, processing: took.file.name }, 'inbox: file taken');
  await removeDoneMarker(s, name);
  try {
    await admitTaken(s, took.file);
  } finally {
    settleInboxFile(s, name);
  }
}

/** Size or mtime changed, or have not stayed still for FILE_STABLE_MS yet: the next check is scheduled (true). */
function stillSettling(
  s: InboxWatcherState,
  name: string,
  t: Tracker,
  st: { size: number; mtimeMs: number; isFile(): boolean },
): boolean {
  const { stableMs } = s;
  const now = Date.now();
  if (st.size !== t.size || st.mtimeMs !== t.mtimeMs) {
    t.size = st.size;
    t.mtimeMs = st.mtimeMs;
    t.since = now;
    // A little jitter: workers on several hosts then do not all stat and rename the same file in lockstep.
    scheduleCheck(s, name, t, stableMs + Math.floor(Math.random() * Math.min(250, stableMs / 4)));
    return true;
  }
  const needed = st.size === 0 && st.isFile() ? s.emptyMs : stableMs;
  if (now - t.since >= needed) return false;
  scheduleCheck(s, name, t, needed - (now - t.since));
  return true;
}

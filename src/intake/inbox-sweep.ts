/**
 * The inbox sweeps: chokidar may report a file twice or miss one, so the inbox is also listed on demand and on the
 * SWEEP_CRON schedule; each sweep first tries again the taken files not yet queued, and recovers a crashed peer's.
 */
import { readdir } from 'node:fs/promises';
import cron, { type ScheduledTask } from 'node-cron';
import { isInboxCandidate } from './file-mover.ts';
import { readmitUnadmitted, recoverTaken } from './inbox-admission.ts';
import type { InboxWatcherState } from './inbox-state.ts';
import { observeInboxFile } from './inbox-tracker.ts';

/** The names in the inbox that may be taken. */
export async function listInbox(s: InboxWatcherState): Promise<string[]> {
  const entries = await readdir(s.inbox, { withFileTypes: true });
  // symbolic links too: they are taken to be refused (a report, failed/), not left in the inbox unexplained
  return entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && isInboxCandidate(e.name)).map((e) => e.name);
}

/** A sweep asked for (InboxWatcher.sweep): resolves when every file found is settled. */
export async function sweepInbox(s: InboxWatcherState): Promise<void> {
  if (s.closed) return;
  await readmitUnadmitted(s);
  const names = await listInbox(s);
  await Promise.all([
    ...names.map((n) => observeInboxFile(s, n)),
    recoverTaken(s, s.recoverAfterMs).then((rs) => rs.forEach((r) => s.opts.onAdmitted?.(r))),
  ]);
}

/** The SWEEP_CRON schedule; its runs are waited for on close (through inFlight). */
export function scheduleSweeps(s: InboxWatcherState): ScheduledTask {
  const { config, logger } = s.ctx;
  const task = cron.schedule(
    config.SWEEP_CRON,
    async () => {
      if (s.closed) return;
      const run = (async () => {
        await readmitUnadmitted(s);
        // Files are not awaited to the end: one still being written must not block the next sweeps.
        for (const n of await listInbox(s)) void observeInboxFile(s, n);
        for (const r of await recoverTaken(s, s.recoverAfterMs)) s.opts.onAdmitted?.(r);
      })();
      const tracked = run.catch(() => undefined);
      s.inFlight.add(tracked);
      try {
        await run; // a failure is logged by the execution:failed handler below
      } finally {
        s.inFlight.delete(tracked);
      }
    },
    { name: 'inbox-sweep', noOverlap: true },
  );
  task.on('execution:failed', (c) => logger.error({ err: c.execution?.error }, 'inbox: sweep failed'));
  return task;
}

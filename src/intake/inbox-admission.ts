/**
 * The inbox watcher's admissions: a file just taken, the taken files whose admission failed (tried again by every
 * sweep), and the files a crashed worker left in processing/ (recovered with the watcher's caches).
 */
import { admitProcessingFile, recoverProcessing, type AdmitResult } from './inbox-intake.ts';
import type { InboxWatcherState } from './inbox-state.ts';
import type { ProcessingName } from '../queues/index.ts';

/**
 * Admit a taken file; when that fails (Redis down), or the file is a copy still waiting for its first, the next
 * sweep tries again at once, not after recoverAfterMs. A sweep's try does not wait: it looks once.
 */
export async function admitTaken(
  s: InboxWatcherState,
  file: ProcessingName,
  waitForFirstMs = s.opts.waitForFirstCopyMs,
): Promise<void> {
  try {
    const result = await admitProcessingFile(s.ctx, file, waitForFirstMs !== undefined ? { waitForFirstMs } : {});
    if (result.status === 'waiting') s.unadmitted.set(file.name, file);
    else s.unadmitted.delete(file.name);
    s.opts.onAdmitted?.(result);
  } catch (err) {
    s.unadmitted.set(file.name, file);
    s.ctx.logger.error(
      { err, file: file.original, processing: file.name },
      `inbox: ${file.original} was taken but could not be queued (${(err as Error).message}); the next sweep tries again`,
    );
  }
}

/** The files whose admission failed, tried again (each sweep, before anything else). */
export async function readmitUnadmitted(s: InboxWatcherState): Promise<void> {
  for (const file of [...s.unadmitted.values()]) await admitTaken(s, file, 0);
}

/** Re-admit the processing/ files taken at least `minAgeMs` ago (0 at start: every file a crashed run left). */
export function recoverTaken(s: InboxWatcherState, minAgeMs: number): Promise<AdmitResult[]> {
  return recoverProcessing(s.ctx, { minAgeMs, hashes: s.hashes, warned: s.warned });
}

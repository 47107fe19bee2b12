/**
 * Done-file pickup (INBOX_DONE_SUFFIX): for ERPs that write slowly over SMB, an export `<name>` is taken only once its
 * marker `<name><suffix>` exists, and the marker is removed with it. A marker alone is ignored (never taken, never
 * removed). A marker at least as new as its file says the file is complete: it is taken at once. A marker older than
 * its file (it came first, or an earlier drop of the same name left it) does not vouch for the file: the usual
 * stability check (FILE_STABLE_MS) applies before it is taken. Without the setting nothing here applies.
 */
import type { Stats } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { InboxWatcherState } from './inbox-state.ts';

/** The export a marker stands for, or undefined when `name` is no marker. */
export function markedFile(s: InboxWatcherState, name: string): string | undefined {
  const suffix = s.ctx.config.INBOX_DONE_SUFFIX;
  return suffix && name.length > suffix.length && name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
}

/**
 * `wait`: no marker yet (its arrival, or a sweep, looks again); `take`: the marker vouches for the file; `stable`:
 * the stability check decides (no setting, or a marker older than the file).
 */
export async function doneMarkerGate(
  s: InboxWatcherState,
  name: string,
  file: Stats,
): Promise<'wait' | 'take' | 'stable'> {
  const suffix = s.ctx.config.INBOX_DONE_SUFFIX;
  if (!suffix) return 'stable';
  const marker = await lstat(join(s.inbox, `${name}${suffix}`)).catch(() => undefined);
  if (!marker?.isFile()) return 'wait';
  return marker.mtimeMs >= file.mtimeMs ? 'take' : 'stable';
}

/** The marker goes with its file (a peer that took the file first may have removed it already). */
export async function removeDoneMarker(s: InboxWatcherState, name: string): Promise<void> {
  const suffix = s.ctx.config.INBOX_DONE_SUFFIX;
  if (!suffix) return;
  await rm(join(s.inbox, `${name}${suffix}`), { force: true }).catch((err: unknown) =>
    s.ctx.logger.warn({ err, file: name }, `inbox: could not remove the marker ${name}${suffix}`),
  );
}

/**
 * The audit log's writer: `<RFQ_SYNC_DIR>/audit/YYYY-MM-DD.<host>.jsonl`, one JSON line per event (events.ts), each
 * appended whole and fdatasync'ed before write() resolves (src/audit/log-file.ts), so a caller that awaits it before
 * reporting its step done never reports a step the log lacks. A file that ends mid-line (a crash, a disk that filled)
 * gets its newline first, so the next line is never glued onto a torn one. Each line carries the writing process and
 * its number in that process (`writer`, `seq`): a number missing between two read is a line lost, which `trace` says.
 *
 * Faults are said, never silent: the folder is made again on every open that finds it missing (moved away under a
 * running worker); a folder that cannot be written (read-only, refused) or a full disk is the writer's fault
 * (writer-faults.ts) until a line is written again or `check()` finds the folder writable: /readyz, `status` and IT
 * are told (app/runtime/worker-context.ts) and jobs wait for it without spending attempts (src/outbox/audit-wait.ts).
 * After each durable line the index (audit-index.ts) takes it, when that is cheap. Files older than
 * AUDIT_RETENTION_DAYS go on the first write of each day, each run said in the log.
 */
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../core/index.ts';
import { withoutSecrets, type AuditEvent, type AuditIdentity, type AuditLine } from './events.ts';
import { appendWholeLine, readRange } from './log-file.ts';
import { auditDir, auditFileName, parseAuditFileName, safeHost } from './log-names.ts';
import type { AuditIndex } from './audit-index.ts';
import { type AuditFault, faultKeeper } from './writer-faults.ts';

const DAY_MS = 86_400_000;
/** The writer indexes its own line only when the index is at most this far behind its file (else: readers do). */
const WRITER_INDEX_MAX_BYTES = 64 * 1024;
/** How long the writer leaves the index alone after it could not open it. */
const INDEX_RETRY_MS = 60_000;

/** What call sites hold: one method, awaited before the step is reported done. */
export interface AuditSink {
  write(e: AuditEvent): Promise<void>;
}

export interface AuditLog extends AuditSink {
  readonly dir: string;
  readonly host: string;
  /** Remove files older than the retention (the writer does it once a day by itself); returns their names. */
  prune(now?: number): Promise<string[]>;
  /** The fault in force, if any (cleared by the next line written, or by check()). */
  fault(): AuditFault | undefined;
  /** Look at the folder now (make it when missing): the fault in force after the look. */
  check(): Promise<AuditFault | undefined>;
  /** Close the index's connection. */
  close(): void;
}

export interface AuditLogOptions {
  /** The data folder (RFQ_SYNC_DIR): the log is its `audit/` folder. */
  root: string;
  /** Days of files kept (AUDIT_RETENTION_DAYS); 0 keeps all. */
  retentionDays: number;
  /** Default: this machine's host name. */
  host?: string;
  /** The sourcing account, on every line (several accounts may share a data folder). */
  account?: string;
  now?: () => number;
  /**
   * Fills in the identity fields an event lacks (a transition knows its RFQ, not its external_ids): read from
   * Redis by the caller's stores (src/tracking/audit-identity.ts). A failure leaves the line as it is: a line
   * without them beats no line.
   */
  enrich?: (e: AuditEvent) => Promise<AuditIdentity>;
  /** Told when a fault begins (the fault) and when it ends (undefined). */
  onFault?: (fault: AuditFault | undefined, was: AuditFault | undefined) => void;
  /** Where pruning, a mended file and faults are said. */
  logger?: Logger;
  /** Index each line after it is durable (default true; the index is a cache, src/audit/audit-index.ts). */
  index?: boolean;
}

export function createAuditLog(o: AuditLogOptions): AuditLog {
  const dir = auditDir(o.root);
  const host = safeHost(o.host ?? hostname());
  const now = o.now ?? Date.now;
  const writer = `${process.pid}-${Date.now().toString(36)}`;
  let seq = 0;
  let prunedDay = '';
  const faults = faultKeeper({ dir, host, now, logger: o.logger, onFault: o.onFault });
  const index = writerIndex(dir, host, o.index ?? true);

  const log: AuditLog = {
    dir,
    host,
    async write(e) {
      const at = now();
      const day = new Date(at).toISOString().slice(0, 10);
      if (day !== prunedDay) {
        prunedDay = day;
        await log.prune(at).catch(() => undefined); // never blocks a step; tried again tomorrow
        index.reset(); // once a day the index is opened again (a reader may have made a new one)
      }
      const known = o.enrich ? await o.enrich(e).catch(() => ({})) : {};
      const line: AuditLine = {
        at: new Date(at).toISOString(),
        host,
        pid: process.pid,
        ...withoutSecrets({ ...(o.account ? { account: o.account } : {}), ...known, ...e }),
        writer,
        seq: seq + 1, // taken only once the line is whole on disk: a short write's retry carries the same number
      };
      const name = auditFileName(day, host);
      const path = join(dir, name);
      const buf = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
      try {
        const done = await appendWholeLine(path, buf).catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          await mkdir(dir, { recursive: true }); // moved away under us: made again, and the index with it
          index.reset();
          return appendWholeLine(path, buf);
        });
        if (done.mended)
          o.logger?.warn(
            { event: 'audit.mended', file: path },
            `audit log: ${path} ended mid-line (a torn line, skipped when read); the next line starts on its own`,
          );
      } catch (err) {
        faults.raise(err, path);
      }
      seq = line.seq!;
      faults.cleared();
      await index.afterAppend(name, path);
    },
    prune: (at = now()) => pruneAudit(dir, o.retentionDays, at, o.logger),
    fault: faults.fault,
    check: faults.check,
    close: () => index.close(),
  };
  return log;
}

/** Remove the files older than the retention; each run that removed any is said in the log. */
async function pruneAudit(dir: string, days: number, at: number, logger?: Logger): Promise<string[]> {
  if (days <= 0) return [];
  const cutoff = new Date(at - days * DAY_MS).toISOString().slice(0, 10);
  const gone: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const f = parseAuditFileName(name);
    if (!f || f.day >= cutoff) continue;
    await unlink(join(dir, name)).then(
      () => gone.push(name),
      () => undefined, // another host pruned it first
    );
  }
  if (gone.length)
    logger?.info(
      { event: 'audit.pruned', dir, files: gone, retentionDays: days },
      `audit log: removed ${gone.length} file(s) older than AUDIT_RETENTION_DAYS (${days}) from ${dir}: ${gone.join(', ')}`,
    );
  return gone;
}

/**
 * The writer's side of the index: opened on first use (node:sqlite is loaded then), never waited on (a busy or
 * broken index is left to the readers, and tried again a minute later).
 */
function writerIndex(dir: string, host: string, on: boolean) {
  let idx: AuditIndex | undefined;
  let retryAt = 0;
  const give = (): void => {
    idx?.close();
    idx = undefined;
    retryAt = Date.now() + INDEX_RETRY_MS;
  };
  return {
    async afterAppend(name: string, path: string): Promise<void> {
      if (!on || Date.now() < retryAt) return;
      try {
        if (!idx) {
          const { openAuditIndex } = await import('./audit-index.ts');
          idx = openAuditIndex(dir, host, { busyMs: 0, writer: true });
          if (!idx) return give();
        }
        const from = idx.indexedUpTo(name);
        const st = await stat(path);
        if (st.size - from > WRITER_INDEX_MAX_BYTES || st.size <= from) return;
        idx.addAppended(name, st.ino, from, await readRange(path, from, st.size));
      } catch {
        give(); // busy (a reader catching up), missing, broken: the readers catch up from the files
      }
    },
    reset(): void {
      idx?.close();
      idx = undefined;
      retryAt = 0;
    },
    close(): void {
      idx?.close();
      idx = undefined;
    },
  };
}

/**
 * The audit log's writer: `<RFQ_SYNC_DIR>/audit/YYYY-MM-DD.<host>.jsonl`, one JSON line per event (events.ts), each
 * line appended in ONE write(2) on a file opened O_APPEND and fdatasync'ed before write() resolves, so a caller that
 * awaits it before reporting its step done never reports a step the log lacks, and a crash (even SIGKILL) never
 * leaves half a line: the kernel appends a whole buffer or none of it, and several processes of one host append to
 * the same file without interleaving. Each host writes its own file (a shared data folder on a network share is not
 * trusted with concurrent appends from several hosts). Files older than AUDIT_RETENTION_DAYS go, checked on the
 * first write of each day.
 */
import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DiskFullError } from '../core/index.ts';
import { withoutSecrets, type AuditEvent, type AuditIdentity, type AuditLine } from './events.ts';

const DAY_MS = 86_400_000;

/** What call sites hold: one method, awaited before the step is reported done. */
export interface AuditSink {
  write(e: AuditEvent): Promise<void>;
}

export interface AuditLog extends AuditSink {
  readonly dir: string;
  readonly host: string;
  /** Remove files older than the retention (the writer does it once a day by itself); returns their names. */
  prune(now?: number): Promise<string[]>;
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
}

/** The audit folder of a data folder. */
export function auditDir(root: string): string {
  return join(root, 'audit');
}

/** The host as it appears in file names: letters, digits, `.`, `_`, `-`. */
export function safeHost(h: string): string {
  return h.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'host';
}

const FILE_NAME = /^(\d{4}-\d{2}-\d{2})\.([A-Za-z0-9._-]+)\.jsonl$/;

/** The UTC day and host of an audit file's name, or undefined for any other file. */
export function parseAuditFileName(name: string): { day: string; host: string } | undefined {
  const m = FILE_NAME.exec(name);
  return m ? { day: m[1]!, host: m[2]! } : undefined;
}

export function createAuditLog(o: AuditLogOptions): AuditLog {
  const dir = auditDir(o.root);
  const host = safeHost(o.host ?? hostname());
  const now = o.now ?? Date.now;
  let ready: Promise<unknown> | undefined;
  let prunedDay = '';
  const log: AuditLog = {
    dir,
    host,
    async write(e) {
      const at = now();
      const day = new Date(at).toISOString().slice(0, 10);
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      if (day !== prunedDay) {
        prunedDay = day;
        await log.prune(at).catch(() => undefined); // never blocks a step; tried again tomorrow
      }
      const known = o.enrich ? await o.enrich(e).catch(() => ({})) : {};
      const line: AuditLine = {
        at: new Date(at).toISOString(),
        host,
        pid: process.pid,
        ...withoutSecrets({ ...(o.account ? { account: o.account } : {}), ...known, ...e }),
      };
      await appendLine(join(dir, `${day}.${host}.jsonl`), Buffer.from(`${JSON.stringify(line)}\n`, 'utf8'));
    },
    async prune(at = now()) {
      if (o.retentionDays <= 0) return [];
      const cutoff = new Date(at - o.retentionDays * DAY_MS).toISOString().slice(0, 10);
      const gone: string[] = [];
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const f = parseAuditFileName(name);
        if (!f || f.day >= cutoff) continue;
        await unlink(join(dir, name)).then(
          () => gone.push(name),
          () => undefined, // another host pruned it first
        );
      }
      return gone;
    },
  };
  return log;
}

/** One write of the whole line (O_APPEND), then fdatasync: the line is on disk, whole, when this resolves. */
async function appendLine(path: string, buf: Buffer): Promise<void> {
  let fh;
  try {
    fh = await open(path, 'a');
    const { bytesWritten } = await fh.write(buf, 0, buf.length);
    if (bytesWritten !== buf.length) {
      // only a full disk writes short: end the torn part so the next line starts clean (the reader skips it)
      await fh.write('\n');
      throw Object.assign(new Error(`audit log ${path}: short write`), { code: 'ENOSPC' });
    }
    await fh.datasync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new DiskFullError(path, code, { cause: err });
    throw err;
  } finally {
    await fh?.close();
  }
}

/**
 * Retention: what rfq-sync keeps and for how long. With RETENTION_DAYS set, files in archive/ and failed/, file
 * reports (outbox/reports/) and finished file-ledger entries older than that go; comparisons and award files only
 * with OUTBOX_RETENTION_DAYS (procurement and the ERP read them). 0 keeps everything (the default: deleting is never
 * a surprise). Run daily by RETENTION_CRON on every worker (deleting twice is harmless); the last run is kept in
 * Redis (keys.key('retention', 'last')) for `status`.
 * A file's age is its take time (in its name) where it has one, else its mtime. A ledger entry goes only when it is
 * `done` and unchanged since it was read (a file taken meanwhile keeps its entry). Without its entry, the same bytes
 * dropped again are read again; the idempotency records still give each requisition one RFQ.
 */
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import cron, { type ScheduledTask } from 'node-cron';
import type { SettingValues, folderSettings, Folders } from '../settings/index.ts';
import type { Logger } from '../core/index.ts';
import { type RedisKeys, defineScript, loadScript, type ScriptFlag } from '../redis/index.ts';
import { type AuditSink, retentionDone } from '../audit/index.ts';
import { parseProcessingName } from '../queues/index.ts';

export interface RetentionResult {
  /** ISO time of the run. */
  at: string;
  days: number;
  outboxDays: number;
  removed: { archive: number; failed: number; reports: number; comparisons: number; awards: number; ledger: number };
  /** Files that could not be removed (path: reason), at most 20. */
  errors: string[];
}

type RetentionSettings = SettingValues<typeof folderSettings>;
type RetentionConfig = Pick<RetentionSettings, 'RETENTION_DAYS' | 'OUTBOX_RETENTION_DAYS'> & {
  folders: Pick<Folders, 'archive' | 'failed' | 'reports' | 'comparisons' | 'awards'>;
};
/** The settings the retention schedule reads (beside the worker's jobs). */
export type RetentionScheduleConfig = RetentionConfig & Pick<RetentionSettings, 'RETENTION_CRON'>;

const DELETE_IF_SAME = loadScript<ScriptFlag>('ledgerDeleteIfSame-1.lua');

const DAY_MS = 86_400_000;

async function removeOlder(dir: string, cutoff: number, errors: string[]): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    try {
      const st = await lstat(path);
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      const age = parseProcessingName(name)?.takenAt ?? st.mtimeMs;
      if (age >= cutoff) continue;
      await unlink(path);
      n++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another worker was first
      if (errors.length < 20) errors.push(`${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return n;
}

export async function runRetention(o: {
  config: RetentionConfig;
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  now?: number;
  /** The audit log: each run is a line (what it removed). */
  audit?: AuditSink;
}): Promise<RetentionResult> {
  const now = o.now ?? Date.now();
  const f = o.config.folders;
  const days = o.config.RETENTION_DAYS;
  const outboxDays = o.config.OUTBOX_RETENTION_DAYS;
  const errors: string[] = [];
  const removed = { archive: 0, failed: 0, reports: 0, comparisons: 0, awards: 0, ledger: 0 };
  if (days > 0) {
    const cutoff = now - days * DAY_MS;
    removed.archive = await removeOlder(f.archive, cutoff, errors);
    removed.failed = await removeOlder(f.failed, cutoff, errors);
    removed.reports = await removeOlder(f.reports, cutoff, errors);
    const del = defineScript(o.redis, DELETE_IF_SAME);
    let cursor = '0';
    do {
      const [next, flat] = await o.redis.hscan(o.keys.fileLedger, cursor, 'COUNT', 500);
      cursor = next;
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const [sha, raw] = [flat[i]!, flat[i + 1]!];
        let e: { state?: string; doneAt?: number };
        try {
          e = JSON.parse(raw) as typeof e;
        } catch {
          continue;
        }
        if (e.state === 'done' && typeof e.doneAt === 'number' && e.doneAt < cutoff)
          removed.ledger += await del([o.keys.fileLedger], [sha, raw]);
      }
    } while (cursor !== '0');
  }
  if (outboxDays > 0) {
    const cutoff = now - outboxDays * DAY_MS;
    removed.comparisons = await removeOlder(f.comparisons, cutoff, errors);
    removed.awards = await removeOlder(f.awards, cutoff, errors);
  }
  const result: RetentionResult = { at: new Date(now).toISOString(), days, outboxDays, removed, errors };
  await o.audit?.write(retentionDone(removed, days, outboxDays));
  await o.redis.set(o.keys.key('retention', 'last'), JSON.stringify(result));
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  o.logger.info(
    { event: 'retention.done', ...result },
    `retention: ${total} removed (${Object.entries(removed)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})${errors.length ? `; ${errors.length} could not be removed` : ''}`,
  );
  for (const e of errors) o.logger.warn({ event: 'retention.failed' }, `retention: could not remove ${e}`);
  return result;
}

/** The last run (for `status`), or null before the first. */
export async function lastRetention(redis: Redis, keys: RedisKeys): Promise<RetentionResult | null> {
  const raw = await redis.get(keys.key('retention', 'last'));
  return raw ? (JSON.parse(raw) as RetentionResult) : null;
}

/** Run retention on RETENTION_CRON while either retention is on. */
export function startRetentionSchedule(ctx: {
  config: RetentionScheduleConfig;
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  audit?: AuditSink;
}): { task?: ScheduledTask; stop(): Promise<void> } {
  if (ctx.config.RETENTION_DAYS <= 0 && ctx.config.OUTBOX_RETENTION_DAYS <= 0) return { stop: async () => undefined };
  const task = cron.schedule(
    ctx.config.RETENTION_CRON,
    async () => {
      try {
        await runRetention(ctx);
      } catch (err) {
        ctx.logger.warn({ err, event: 'retention.failed' }, `retention run failed: ${(err as Error).message}`);
      }
    },
    { name: 'rfq-sync-retention', noOverlap: true },
  );
  return { task, stop: async () => void (await task.destroy()) };
}

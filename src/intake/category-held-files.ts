/**
 * Files held in the inbox for the vendor directory (CATEGORY_CHECK=hold): the directory had never been read and could
 * not be read within CATEGORY_CHECK_WAIT_MS, so the categories of the file's requisitions could not be checked. None
 * of them is sent unchecked: the ingest job writes the file's report (its requisitions counted as held, why in the
 * first note), puts the file back in the inbox and records it in Redis (hash keys.key('category-held-files'): inbox
 * name -> JSON CategoryHeldFile). The inbox watcher leaves it alone while the directory stays unread; once it is read
 * (by the poll, by `rfq-sync doctor`, by another file's ingest) or found absent, the next sweep takes the file again
 * and its requisitions are checked. A file of the same name with another size or mtime is a new file. `status`
 * lists the held files.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import { writeIngestReport, type IngestSummary } from '../ingest/index.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';
import { vendorStore } from '../vendors/vendor-store.ts';
import { returnToInbox, type FileFolders, type ProcessingName } from './file-mover.ts';
import type { FileLedger } from './file-ledger.ts';

export interface CategoryHeldFile {
  /** Its name in the inbox now. */
  inboxName: string;
  /** Its name as dropped. */
  file: string;
  sha256: string;
  size: number;
  mtimeMs: number;
  /** Requisitions read from it, none sent. */
  requisitions: number;
  /** Why the directory could not be used. */
  reason: string;
  at: number;
  /** Its report in outbox/reports/. */
  report: string;
}

type Keys = Pick<RedisKeys, 'key'>;
const heldKey = (keys: Keys) => keys.key('category-held-files');

/**
 * Report, back to the inbox, the record, then the ledger lets its bytes be read again. A crash before the record
 * only means the file is taken (and held) once more.
 */
export async function holdForVendorDirectory(o: {
  redis: Redis;
  keys: Keys;
  log: Logger;
  folders: FileFolders;
  ledger: FileLedger;
  file: ProcessingName;
  sha256: string;
  report: string;
  summary: IngestSummary;
  reason: string;
}): Promise<CategoryHeldFile> {
  const { file, summary } = o;
  const n = summary.requisitions;
  await writeIngestReport(
    { ...summary, requisitions: 0, lines: 0, heldRequisitions: summary.heldRequisitions + n },
    join(o.folders.reports, o.report),
    {
      notes: [
        `Held in the inbox (CATEGORY_CHECK=hold): the vendor directory could not be read (${o.reason}), so the categories of its ${n} requisition(s) could not be checked; none was sent. The file is read again once the directory is read (by the poll, or at once by \`rfq-sync doctor\`).`,
        `sha256 ${o.sha256}.`,
      ],
    },
  );
  const inboxName = await returnToInbox(o.folders, file);
  const st = await lstat(join(o.folders.inbox, inboxName));
  const held: CategoryHeldFile = {
    inboxName,
    file: file.original,
    sha256: o.sha256,
    size: st.size,
    mtimeMs: st.mtimeMs,
    requisitions: n,
    reason: o.reason,
    at: Date.now(),
    report: o.report,
  };
  await o.redis.hset(heldKey(o.keys), inboxName, JSON.stringify(held));
  await o.ledger.release(o.sha256, file.name);
  o.log.warn(
    { event: 'file.category-held', inboxName, requisitions: n, reason: o.reason, report: o.report },
    `ingest: ${file.original} held in the inbox as ${inboxName}: CATEGORY_CHECK=hold and the vendor directory could not be read (${o.reason}); its ${n} requisition(s) are read and checked once it is (report outbox/reports/${o.report})`,
  );
  return held;
}

/**
 * Whether the inbox file `name` (as `st` shows it) waits for the vendor directory and must be left alone: recorded,
 * unchanged, CATEGORY_CHECK still `hold`, and the directory still neither read nor found absent. A record that no longer applies is removed.
 * When Redis cannot be asked, the file is not held: taken, it is held again if it must be.
 */
export async function stillHeldForVendors(
  ctx: { redis: Redis; keys: Keys; logger: Logger; config: { CATEGORY_CHECK: string } },
  name: string,
  st: Pick<Stats, 'size' | 'mtimeMs'>,
): Promise<boolean> {
  if (ctx.redis.status !== 'ready') return false;
  try {
    const raw = await ctx.redis.hget(heldKey(ctx.keys), name);
    if (raw === null) return false;
    const held = JSON.parse(raw) as CategoryHeldFile;
    const dir = await vendorStore(ctx).stored();
    const unread =
      ctx.config.CATEGORY_CHECK === 'hold' &&
      (dir === undefined || (dir.readAt === undefined && dir.outcome !== 'absent'));
    if (held.size === st.size && held.mtimeMs === st.mtimeMs && unread) return true;
    await ctx.redis.hdel(heldKey(ctx.keys), name);
  } catch {
    // Redis went away meanwhile: take the file (held again if it must be)
  }
  return false;
}

/** The files held now, oldest first (a record whose file left the inbox, or was replaced, is not one). */
export async function listCategoryHeldFiles(redis: Redis, keys: Keys, inbox: string): Promise<CategoryHeldFile[]> {
  const out: CategoryHeldFile[] = [];
  for (const [name, raw] of Object.entries(await redis.hgetall(heldKey(keys)))) {
    const held = JSON.parse(raw) as CategoryHeldFile;
    const st = await lstat(join(inbox, name)).catch(() => undefined);
    if (st && st.size === held.size && st.mtimeMs === held.mtimeMs) out.push(held);
  }
  return out.sort((a, b) => a.at - b.at);
}

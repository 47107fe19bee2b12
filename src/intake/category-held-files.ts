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
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import { writeIngestReport, type IngestSummary } from '../ingest/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { vendorStore } from '../vendors/index.ts';
import { inboxHolds, type HoldInput, type InboxHold } from './inbox-hold.ts';

export interface CategoryHeldFile extends InboxHold {
  /** Requisitions read from it, none sent. */
  requisitions: number;
  /** Why the directory could not be used. */
  reason: string;
}

type Keys = Pick<RedisKeys, 'key'>;
const holds = inboxHolds<CategoryHeldFile>((keys: Keys) => keys.key('category-held-files'));

/**
 * Report, back to the inbox, the record, then the ledger lets its bytes be read again. A crash before the record
 * only means the file is taken (and held) once more.
 */
export async function holdForVendorDirectory(
  o: HoldInput & {
    summary: IngestSummary;
    reason: string;
  },
): Promise<CategoryHeldFile> {
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
  const held = await holds.hold(o, { requisitions: n, reason: o.reason });
  const { inboxName } = held;
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
  return holds.stillHeld(ctx, name, st, async () => {
    if (ctx.config.CATEGORY_CHECK !== 'hold') return false;
    const dir = await vendorStore(ctx).stored();
    return dir === undefined || (dir.readAt === undefined && dir.outcome !== 'absent');
  });
}

/** The files held now, oldest first (a record whose file left the inbox, or was replaced, is not one). */
export function listCategoryHeldFiles(redis: Redis, keys: Keys, inbox: string): Promise<CategoryHeldFile[]> {
  return holds.list(redis, keys, inbox);
}

/**
 * What Redis knows of a trace's query when the audit log names nothing (a day file moved away, a log pruned, another
 * data folder): the requisition's record (by `profile/key`, or the requisition holding an external_id) and the RFQ's
 * tracking record (by `_id`), as sentences. `trace` says the log is silent and answers from these. Reads only.
 */
import type { Redis } from 'ioredis';
import { requisitionRecords } from '../requisitions/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { trackingStore } from '../rfqs/index.ts';

export async function traceInRedis(ctx: { redis: Redis; keys: RedisKeys }, what: string): Promise<string[]> {
  const q = what.trim();
  const requisitions = requisitionRecords(ctx.redis, ctx.keys);
  const tracking = trackingStore(ctx);
  const out: string[] = [];
  const rfqIds = new Set<number>();
  const reqIds = new Set<string>();
  if (/^[^/]+\/.+$/.test(q)) reqIds.add(q);
  const [holder] = await requisitions.holders([q]);
  if (holder) reqIds.add(holder);
  for (const id of reqIds) {
    const rec = await requisitions.get(id);
    if (!rec) continue;
    out.push(
      `requisition ${id} is recorded: ${rec.state}${rec.rfqId !== undefined ? `, RFQ ${rec.rfqId}` : ''}${rec.reason ? ` (${rec.reason})` : ''}`,
    );
    if (rec.rfqId !== undefined) rfqIds.add(rec.rfqId);
  }
  if (/^\d{1,15}$/.test(q)) rfqIds.add(Number(q));
  for (const rec of await tracking.getMany([...rfqIds])) {
    if (!rec) continue;
    const r = rec.requisition;
    const c = rec.comparison;
    out.push(
      [
        `RFQ ${rec.rfqId} is tracked: ${rec.state}`,
        r ? `requisition ${r.profile ? `${r.profile}/` : ''}${r.key} from ${r.sourceFile}` : undefined,
        rec.dueDate !== undefined ? `due ${new Date(rec.dueDate).toISOString()}` : undefined,
        c ? `comparison v${c.version}: ${c.workbook}${c.awardCsv ? `; award ${c.awardCsv}` : ''}` : undefined,
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
  return out;
}

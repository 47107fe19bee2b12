/**
 * Redis's current state of what a trace found (src/audit/timeline.ts Current): each requisition's record (state,
 * reason, RFQ) and each RFQ's tracking record (state, due date, last comparison version and its files). Reads only.
 */
import type { Redis } from 'ioredis';
import type { Current } from '../audit/index.ts';
import { requisitionRecords } from '../requisitions/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { trackingStore } from '../rfqs/index.ts';

export async function traceState(
  ctx: { redis: Redis; keys: RedisKeys },
  found: { requisitions: string[]; rfqIds: number[] },
): Promise<Current> {
  const requisitions = requisitionRecords(ctx.redis, ctx.keys);
  const current: Current = { requisitions: {}, rfqs: {} };
  for (const id of found.requisitions) {
    const rec = await requisitions.get(id);
    if (rec)
      current.requisitions[id] = {
        state: rec.state,
        ...(rec.reason ? { reason: rec.reason } : {}),
        ...(rec.rfqId !== undefined ? { rfqId: rec.rfqId } : {}),
      };
  }
  const records = await trackingStore(ctx).getMany(found.rfqIds);
  for (const rec of records) {
    if (!rec) continue;
    const c = rec.comparison;
    current.rfqs[String(rec.rfqId)] = {
      state: rec.state,
      ...(rec.dueDate !== undefined ? { dueDate: rec.dueDate } : {}),
      ...(c ? { version: c.version, workbook: c.workbook, ...(c.awardCsv ? { awardCsv: c.awardCsv } : {}) } : {}),
    };
  }
  return current;
}

/**
 * The identity an audit line lacks, from Redis (src/audit/writer.ts `enrich`): for a line that names an RFQ, its
 * requisition (profile, key, source file) from the tracking record, its external_ids in line order from the
 * requisition's record, and its number from the RFQ as last listed. Reads only; whatever is missing stays missing.
 */
import type { Redis } from 'ioredis';
import type { AuditEvent, AuditIdentity } from '../audit/index.ts';
import { requisitionRecords } from '../requisitions/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { trackingStore } from '../rfqs/index.ts';

export function auditIdentity(ctx: { redis: Redis; keys: RedisKeys }): (e: AuditEvent) => Promise<AuditIdentity> {
  const store = trackingStore(ctx);
  const requisitions = requisitionRecords(ctx.redis, ctx.keys);
  return async (e) => {
    if (e.rfq_id === undefined) return {};
    const out: AuditIdentity = {};
    const [rec, listed] = await Promise.all([store.get(e.rfq_id), store.getListed(e.rfq_id)]);
    if (listed?.rfq_no !== undefined) out.rfq_no = listed.rfq_no;
    const r = rec?.requisition;
    if (!r) return out;
    out.key = r.key;
    out.file = r.sourceFile;
    if (r.profile) out.profile = r.profile;
    if (e.external_ids === undefined && r.profile) {
      const req = await requisitions.get(`${r.profile}/${r.key}`);
      if (req)
        out.external_ids = Object.entries(req.positions)
          .sort((a, b) => a[1] - b[1])
          .map(([id]) => id);
    }
    return out;
  };
}

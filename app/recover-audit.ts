/**
 * `rfq-sync recover` re-seeds from the audit log (src/audit/) before any walk of the service: a requisition whose
 * create the log recorded (created, adopted, or found existing, with its RFQ `_id` and each external_id's line
 * position) gets its record back as `created` with that RFQ, and its RFQ is tracked again, exactly as the create had
 * recorded them: no create job, so no reconcile walk of the account for it. The log knows what the service cannot
 * tell (which RFQ was ours when two look alike, the positions as posted). A requisition the log does not know
 * whole (no create recorded, or lines the recorded RFQ does not hold: a supplementary RFQ, a changed export) is
 * left to the reconcile as before.
 */
import type { Redis } from 'ioredis';
import type { IdempotencyStore } from '../src/creation/idempotency-store.ts';
import { readAudit } from '../src/audit/reader.ts';
import type { RedisKeys } from '../src/redis/redis-keys.ts';
import type { Requisition } from '../src/requisition.ts';
import { trackRfq } from '../src/tracking/rfq-tracker.ts';

export interface KnownRfq {
  rfqId: number;
  /** external_id -> line position in the RFQ, as recorded by the create. */
  positions: Record<string, number>;
  how: 'posted' | 'adopted';
}

const SETTLED = new Set(['created', 'adopted', 'existing', 'resolved']);

/** The RFQ of each requisition (`profile/key`) the log recorded a create for; the last line wins. */
export async function rfqsInAuditLog(root: string): Promise<Map<string, KnownRfq>> {
  const known = new Map<string, KnownRfq>();
  for await (const l of readAudit(root)) {
    if (l.event !== 'create-sent' && l.event !== 'supplementary-rfq') continue;
    if (!SETTLED.has(String(l.outcome)) || l.rfq_id === undefined || !l.profile || !l.key) continue;
    const positions = l.positions as Record<string, number> | undefined;
    if (!positions || Object.keys(positions).length === 0) continue;
    const how = l.how === 'adopted' || l.outcome === 'adopted' ? 'adopted' : 'posted';
    known.set(`${l.profile}/${l.key}`, { rfqId: l.rfq_id, positions, how });
  }
  return known;
}

/**
 * A requisition just seeded for recovery (`creating`, its external_ids claimed): recorded with the RFQ the log
 * knows, and tracked. False when the log does not know it whole (the caller queues it to reconcile).
 */
export async function reseedFromAudit(
  ctx: { redis: Redis; keys: RedisKeys; config?: { REQUISITION_CURRENCY?: string | undefined } },
  store: Pick<IdempotencyStore, 'record'>,
  r: Requisition,
  known: Map<string, KnownRfq>,
): Promise<boolean> {
  const k = known.get(`${r.profile}/${r.key}`);
  if (!k || !r.lines.every((l) => k.positions[l.external_id] !== undefined)) return false;
  const lines = r.lines.map((line) => ({ line, position: k.positions[line.external_id]! }));
  const res = await store.record(r, k.rfqId, lines, k.how, []);
  if (res.status === 'duplicate') return false;
  await trackRfq(ctx, { rfqId: k.rfqId, requisition: r });
  return true;
}

/**
 * `rfq-sync recover` re-seeds from the audit log (src/audit/) before any walk of the service: a requisition whose
 * create the log recorded (created, adopted, or found existing, with its RFQ `_id` and each external_id's line
 * position) gets its record back as `created` with that RFQ, and its RFQ is tracked again, exactly as the create had
 * recorded them: no create job, so no reconcile walk of the account for it. Its tracking record gets back the
 * transitions the log saw and its last comparison version (files, revisions, award): the next poll finds no change
 * and no version is written again (nor a second award file for the ERP). The log knows what the service cannot
 * tell (which RFQ was ours when two look alike, the positions as posted). A requisition the log does not know
 * whole (no create recorded, or lines the recorded RFQ does not hold: a supplementary RFQ, a changed export) is
 * left to the reconcile as before.
 */
import { basename } from 'node:path';
import type { Redis } from 'ioredis';
import type { IdempotencyStore } from '../../src/creation/index.ts';
import { readAudit, type AuditLine } from '../../src/audit/index.ts';
import type { RedisKeys } from '../../src/redis/index.ts';
import type { Requisition } from '../../src/core/index.ts';
import { trackRfq } from '../../src/tracking/index.ts';
import {
  trackingStore,
  MAX_TRANSITIONS,
  type Transition,
  type TrackedState,
  type WrittenComparison,
} from '../../src/rfqs/index.ts';

export interface KnownRfq {
  rfqId: number;
  /** external_id -> line position in the RFQ, as recorded by the create. */
  positions: Record<string, number>;
  how: 'posted' | 'adopted';
  /** What the log saw of the RFQ since: its transitions and the last comparison version written. */
  tracked?: TrackedFromLog;
}

interface TrackedFromLog {
  transitions: Transition[];
  comparison?: WrittenComparison;
}

const SETTLED = new Set(['created', 'adopted', 'existing', 'resolved']);

/**
 * The RFQ of each requisition (`profile/key`) the log recorded a create for (the last line wins), with what the log
 * saw of that RFQ since: its transitions and its last comparison version (files, the revisions it reflected, the
 * award), so the tracking record comes back as it was and no version is written again for nothing.
 */
export async function rfqsInAuditLog(root: string): Promise<Map<string, KnownRfq>> {
  const known = new Map<string, KnownRfq>();
  const tracked = new Map<number, TrackedFromLog>();
  for await (const l of readAudit(root)) {
    if (l.rfq_id !== undefined) trackedLine(tracked, l);
    if (l.event !== 'create-sent' && l.event !== 'supplementary-rfq') continue;
    if (!SETTLED.has(String(l.outcome)) || l.rfq_id === undefined || !l.profile || !l.key) continue;
    const positions = l.positions as Record<string, number> | undefined;
    if (!positions || Object.keys(positions).length === 0) continue;
    const how = l.how === 'adopted' || l.outcome === 'adopted' ? 'adopted' : 'posted';
    known.set(`${l.profile}/${l.key}`, { rfqId: l.rfq_id, positions, how });
  }
  for (const k of known.values()) {
    const t = tracked.get(k.rfqId);
    if (t) k.tracked = t;
  }
  return known;
}

/** One line about an RFQ: a transition seen, a version written, its award. */
function trackedLine(tracked: Map<number, TrackedFromLog>, l: AuditLine): void {
  const t = tracked.get(l.rfq_id!) ?? { transitions: [] };
  tracked.set(l.rfq_id!, t);
  if (l.event === 'transition' && typeof l.from === 'string' && typeof l.to === 'string') {
    const at = Date.parse(String(l.seen_at ?? l.at));
    t.transitions.push({ from: l.from as TrackedState, to: l.to as TrackedState, at });
  } else if (l.event === 'comparison-written' && typeof l.version === 'number' && typeof l.workbook === 'string') {
    const award = t.comparison?.awardCsv;
    t.comparison = {
      version: l.version,
      writtenAt: Date.parse(l.at),
      revisions: (l.revisions as Record<string, number> | undefined) ?? {},
      award: l.for_award === true,
      ...(typeof l.winner === 'string' ? { winnerKey: l.winner } : {}),
      workbook: basename(l.workbook),
      ...(award ? { awardCsv: award } : {}),
    };
  } else if (l.event === 'award-final' && typeof l.award === 'string') {
    if (t.comparison && t.comparison.version === l.version) t.comparison.awardCsv = basename(l.award);
  }
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
  const t = k.tracked;
  if (t && (t.transitions.length > 0 || t.comparison))
    await trackingStore(ctx).update(k.rfqId, (cur) =>
      cur && cur.transitions.length === 0 && !cur.comparison
        ? {
            ...cur,
            state: t.transitions.at(-1)?.to ?? cur.state,
            transitions: t.transitions.slice(-MAX_TRANSITIONS),
            ...(t.comparison ? { comparison: t.comparison } : {}),
          }
        : undefined,
    );
  return true;
}

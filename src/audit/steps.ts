/**
 * Audit lines built where the step happens in src/ (a call site writes `await ctx.audit?.write(step(...))`, one
 * line): plain inputs, so the audit module depends on nobody's types.
 */
import { pollSlotKind } from '../queues/index.ts';
import type { AuditEvent } from './events.ts';

/** How a poll came to run, from its slot (src/queues/poll.ts): a webhook's, one asked by hand, the schedule's. */
export function pollPath(slot: string): 'webhook' | 'manual poll' | 'poll' {
  const kind = pollSlotKind(slot);
  return kind === 'webhook' ? 'webhook' : kind === 'manual' ? 'manual poll' : 'poll';
}

/**
 * A state change of a tracked RFQ, seen by a poll or by the targeted check of the RFQ a webhook named (`via`);
 * written before the change is stored.
 */
export function transitionSeen(
  rfqId: number,
  t: { from: string; to: string; at: number },
  slot: string,
  listed?: { rfq_no?: number | undefined; due_date?: number | undefined },
  requisition?: { key: string; profile?: string | undefined; sourceFile: string },
  via: 'poll' | 'webhook' = 'poll',
): AuditEvent {
  const path = via === 'webhook' ? 'webhook' : pollPath(slot);
  const by =
    via === 'webhook' ? "the webhook's check of this RFQ" : path === 'webhook' ? "a webhook's poll" : `the ${path}`;
  return {
    event: 'transition',
    summary: `RFQ ${rfqId}: ${t.from} -> ${t.to} (seen by ${by})`,
    rfq_id: rfqId,
    ...(listed?.rfq_no !== undefined ? { rfq_no: listed.rfq_no } : {}),
    ...(requisition?.profile ? { profile: requisition.profile, key: requisition.key } : {}),
    ...(requisition ? { file: requisition.sourceFile } : {}),
    from: t.from,
    to: t.to,
    seen_at: new Date(t.at).toISOString(),
    path,
    ...(listed?.due_date !== undefined ? { due_date: listed.due_date } : {}),
  };
}

/** `rfq-sync resolve`: a person settled a parked requisition (that RFQ is its own, or it is posted again). */
export function resolvedBy(
  r: { profile: string; key: string; sourceFile: string; lines: Array<{ external_id: string }> },
  by: string,
  rfq?: { rfqId: number; lines: Array<{ line: { external_id: string }; position: number }> },
): AuditEvent {
  const id = `${r.profile}/${r.key}`;
  return {
    event: 'create-sent',
    summary: rfq
      ? `requisition ${id} resolved by ${by}: RFQ ${rfq.rfqId} is its own (nothing posted)`
      : `requisition ${id} resolved by ${by}: to be posted again`,
    profile: r.profile,
    key: r.key,
    file: r.sourceFile,
    external_ids: r.lines.map((l) => l.external_id),
    outcome: rfq ? 'resolved' : 'resolved-to-post',
    by,
    ...(rfq
      ? {
          rfq_id: rfq.rfqId,
          how: 'adopted',
          positions: Object.fromEntries(rfq.lines.map((l) => [l.line.external_id, l.position])),
        }
      : {}),
  };
}

/** A retention run: what it removed, by folder. */
export function retentionDone(removed: Record<string, number>, days: number, outboxDays: number): AuditEvent {
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  return {
    event: 'retention',
    summary: `retention removed ${total} (${Object.entries(removed)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); RETENTION_DAYS ${days}, OUTBOX_RETENTION_DAYS ${outboxDays}`,
    removed,
    days,
    outbox_days: outboxDays,
  };
}

/** A quotations pull (written before the comparison it asks for is queued, or at the end of its job). */
export function quotationsPulled(o: {
  rfqId: number;
  count: number;
  keys: string[];
  reason: string | undefined;
  winnerKey?: string | undefined;
  version?: number | undefined;
}): AuditEvent {
  return {
    event: 'quotations-pulled',
    summary: `${o.count} quotation(s) pulled for RFQ ${o.rfqId} (${o.reason ?? 'pull'})${o.version ? `; comparison v${o.version} asked for` : ''}`,
    rfq_id: o.rfqId,
    count: o.count,
    keys: o.keys,
    reason: o.reason,
    ...(o.winnerKey ? { winner: o.winnerKey } : {}),
    ...(o.version ? { version: o.version } : {}),
  };
}

/** The service answered a create with the RFQ's `_id` (201): written before the RFQ is recorded and tracked. */
export function createAnswered(
  r: { profile: string; key: string; sourceFile: string; due_date?: number; lines: Array<{ external_id: string }> },
  rfqId: number,
): AuditEvent {
  return {
    event: 'create-sent',
    summary: `RFQ ${rfqId} created for requisition ${r.profile}/${r.key} (${r.lines.length} line(s) sent)`,
    profile: r.profile,
    key: r.key,
    external_ids: r.lines.map((l) => l.external_id),
    file: r.sourceFile,
    rfq_id: rfqId,
    outcome: 'created',
    status: 201,
    how: 'posted',
    positions: Object.fromEntries(r.lines.map((l, i) => [l.external_id, i])),
    ...(r.due_date !== undefined ? { due_date: r.due_date } : {}),
  };
}

/**
 * The requisition records, read only: the later stages (tracking, awarding, the audit, the commands) read a
 * requisition's record here; creation's claim and post protocol (src/creation/idempotency-store.ts) writes it.
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/index.ts';
import type { HeaderOutcome, PostedHeader } from './header.ts';
import type { LineChange, LineFingerprint, PostedBody, RequisitionRecord, RequisitionState } from './record.ts';

export interface RequisitionRecords {
  get(id: string): Promise<RequisitionRecord | undefined>;
  /** The requisition that holds each external_id (the claim table), undefined where none does. */
  holders(externalIds: readonly string[]): Promise<Array<string | undefined>>;
  /** Requisitions whose re-export changed them after their RFQ existed, latest first (keys.key('changed')). */
  recentlyChanged(count: number): Promise<Array<{ id: string; at: number }>>;
}

export function requisitionRecords(redis: Redis, keys: RedisKeys): RequisitionRecords {
  return {
    get: async (id) => recordOf(id, await redis.hgetall(keys.requisition(id))),
    holders: async (externalIds) =>
      externalIds.length === 0 ? [] : (await redis.hmget(keys.externalIds, ...externalIds)).map((h) => h ?? undefined),
    recentlyChanged: async (count) => {
      const flat = await redis.zrevrange(keys.key('changed'), 0, count - 1, 'WITHSCORES');
      const out: Array<{ id: string; at: number }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i]!, at: Number(flat[i + 1]) });
      return out;
    },
  };
}

/** The record's hash (keys.requisition(id)) as a RequisitionRecord; undefined when there is none. */
function recordOf(id: string, h: Record<string, string>): RequisitionRecord | undefined {
  if (!h.state) return undefined;
  return {
    id,
    state: h.state as RequisitionState,
    key: h.key,
    profile: h.profile,
    sourceFile: h.sourceFile,
    title: h.title,
    rfqId: h.rfqId ? Number(h.rfqId) : undefined,
    createdAt: h.createdAt ? Number(h.createdAt) : undefined,
    how: h.how as 'posted' | 'adopted' | undefined,
    positions: JSON.parse(h.positions ?? '{}') as Record<string, number>,
    lines: JSON.parse(h.lines ?? '{}') as Record<string, LineFingerprint>,
    claimed: JSON.parse(h.claimed ?? '[]') as string[],
    attempts: Number(h.attempts ?? 0),
    reason: h.reason,
    changes: h.changes ? (JSON.parse(h.changes) as LineChange[]) : undefined,
    supplements: JSON.parse(h.supplements ?? '[]') as string[],
    posted: JSON.parse(h.posted ?? '[]') as PostedBody[],
    firstPostAt: h.firstPostAt ? Number(h.firstPostAt) : undefined,
    postUntil: h.postUntil ? Number(h.postUntil) : undefined,
    header: h.header ? (JSON.parse(h.header) as PostedHeader) : undefined,
    headerChanges: h.headerChanges ? (JSON.parse(h.headerChanges) as HeaderOutcome) : undefined,
  };
}

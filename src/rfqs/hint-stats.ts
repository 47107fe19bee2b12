/**
 * The webhook path's figures, shared by every worker through Redis (`hint:*` keys), for `status` and the metrics:
 * webhooks received, RFQs checked by hint, transitions found by hint, polls woken, and the close-to-workbook latency
 * histogram (from the moment a closing was first seen, by a webhook's check or a poll, to the first comparison
 * workbook of that closing written). Counting never fails the work it counts: a Redis error is swallowed.
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/index.ts';

type Ctx = { redis: Redis; keys: RedisKeys };

/** Upper bounds of the latency histogram's buckets, seconds (plus +Inf). */
export const CLOSE_TO_WORKBOOK_BUCKETS = [0.5, 1, 2, 3, 5, 10, 30, 60, 120, 300, 600, 1800] as const;

export interface HintFigures {
  /** Webhooks received (any body). */
  received: number;
  /** Tracked RFQs checked at the service because a webhook named them. */
  checked: number;
  /** Transitions those checks found (recorded by them, not by a poll). */
  transitions: number;
  /** Webhook polls scheduled (a webhook naming no tracked RFQ, or one its check could not settle). */
  pollsWoken: number;
  /** Service requests the targeted checks sent. */
  requests: number;
}

export interface LatencyHistogram {
  /** Cumulative counts per bucket upper bound (seconds; `+Inf` last). */
  buckets: Array<{ le: number | '+Inf'; count: number }>;
  /** Sum of all latencies, seconds. */
  sum: number;
  count: number;
}

const statsKey = (c: Ctx) => c.keys.key('hint', 'stats');
const latencyKey = (c: Ctx) => c.keys.key('hint', 'latency');

export async function countHint(c: Ctx, add: Partial<HintFigures>): Promise<void> {
  const p = c.redis.pipeline();
  for (const [field, n] of Object.entries(add)) if (n) p.hincrby(statsKey(c), field, n);
  await p.exec().catch(() => undefined);
}

export async function hintFigures(c: Ctx): Promise<HintFigures> {
  const h = await c.redis.hgetall(statsKey(c));
  const n = (f: keyof HintFigures) => Number(h[f] ?? 0);
  return {
    received: n('received'),
    checked: n('checked'),
    transitions: n('transitions'),
    pollsWoken: n('pollsWoken'),
    requests: n('requests'),
  };
}

/** One closing's first workbook, `ms` after the closing was seen. */
export async function observeCloseToWorkbook(c: Ctx, ms: number): Promise<void> {
  const s = Math.max(0, ms) / 1000;
  const bucket = CLOSE_TO_WORKBOOK_BUCKETS.find((b) => s <= b);
  const p = c.redis.pipeline();
  p.hincrby(latencyKey(c), `le:${bucket ?? '+Inf'}`, 1);
  p.hincrby(latencyKey(c), 'count', 1);
  p.hincrbyfloat(latencyKey(c), 'sum', s);
  await p.exec().catch(() => undefined);
}

export async function closeToWorkbook(c: Ctx): Promise<LatencyHistogram> {
  const h = await c.redis.hgetall(latencyKey(c));
  let cum = 0;
  const buckets: LatencyHistogram['buckets'] = [];
  for (const le of [...CLOSE_TO_WORKBOOK_BUCKETS, '+Inf' as const]) {
    cum += Number(h[`le:${le}`] ?? 0);
    buckets.push({ le, count: cum });
  }
  return { buckets, sum: Number(h.sum ?? 0), count: Number(h.count ?? 0) };
}

/** The histogram's quantile `q` (0..1), as the upper bound of the bucket it falls in; undefined when empty. */
export function quantileBound(h: LatencyHistogram, q: number): number | '+Inf' | undefined {
  if (h.count === 0) return undefined;
  const rank = q * h.count;
  return h.buckets.find((b) => b.count >= rank)?.le;
}

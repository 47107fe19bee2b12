/**
 * `status`'s webhook block: what the webhook path did, every worker's, from Redis (src/rfqs/hint-stats.ts):
 * webhooks received, RFQs checked because one named them, transitions those checks found, polls woken, and the
 * close-to-workbook latency (from a closing seen, by a webhook's check or a poll, to its first workbook written).
 */
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../../src/redis/index.ts';
import { closeToWorkbook, hintFigures, quantileBound, type HintFigures } from '../../src/rfqs/index.ts';

export interface StatusWebhook extends HintFigures {
  closeToWorkbook: {
    count: number;
    /** Mean, seconds; null before the first. */
    meanS: number | null;
    /** The histogram's bucket (upper bound, seconds) holding the median and the 95th percentile; null before the first. */
    p50AtMostS: number | '+Inf' | null;
    p95AtMostS: number | '+Inf' | null;
    buckets: Array<{ le: number | '+Inf'; count: number }>;
  };
}

export async function statusWebhook(ctx: { redis: Redis; keys: RedisKeys }): Promise<StatusWebhook> {
  const [f, h] = await Promise.all([hintFigures(ctx), closeToWorkbook(ctx)]);
  return {
    ...f,
    closeToWorkbook: {
      count: h.count,
      meanS: h.count > 0 ? Math.round((1000 * h.sum) / h.count) / 1000 : null,
      p50AtMostS: quantileBound(h, 0.5) ?? null,
      p95AtMostS: quantileBound(h, 0.95) ?? null,
      buckets: h.buckets,
    },
  };
}

export function webhookLines(w: StatusWebhook | null | undefined): string[] {
  if (!w) return [];
  const c = w.closeToWorkbook;
  const le = (b: number | '+Inf' | null) => (b === '+Inf' ? 'over 30 min' : `<= ${b} s`);
  return [
    `Webhooks: ${w.received} received, ${w.checked} RFQs checked by hint (${w.requests} requests), ` +
      `${w.transitions} transitions found by hint, ${w.pollsWoken} polls woken`,
    `Close to workbook: ${c.count === 0 ? 'no closing yet' : `${c.count} closings, mean ${c.meanS} s, p50 ${le(c.p50AtMostS)}, p95 ${le(c.p95AtMostS)}`}`,
  ];
}

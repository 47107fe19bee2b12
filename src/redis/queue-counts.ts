/** How many jobs each queue holds, by state: for `status`, the metrics and the end of `once`. */
import type { Queues } from './queues.ts';

type QueuesCtx = { queues: Pick<Queues, 'all'> };

export const JOB_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
  'completed',
] as const;

export async function queueCounts(ctx: QueuesCtx): Promise<Record<string, Record<string, number>>> {
  const all = await Promise.all(ctx.queues.all.map((q) => q.getJobCounts(...JOB_STATES)));
  const out: Record<string, Record<string, number>> = {};
  ctx.queues.all.forEach((q, i) => {
    out[q.name] = Object.fromEntries(JOB_STATES.map((s) => [s, all[i]?.[s] ?? 0]));
  });
  return out;
}

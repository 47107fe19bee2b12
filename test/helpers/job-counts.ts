/** Waiting on BullMQ's queues: job counts by state, a queue settled, read-only handles on an account's queues. */
import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '../../src/redis/redis-options.ts';
import { bullPrefix, type RedisConnectionOptions } from '../../src/redis/queues.ts';
import { QUEUE_KEYS, QUEUE_NAMES, type QueueKey } from '../../src/queues/index.ts';
import { sleep } from './wait.ts';

/** Job counts by state, read through BullMQ. */
export type JobCounts = Record<string, number>;

/** States of a job not finished yet. */
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** A queue's jobs by state: every unfinished state, failed and completed. */
export function jobCounts(q: Queue): Promise<JobCounts> {
  return q.getJobCounts(...UNFINISHED, 'failed', 'completed');
}

/** What `jobCounts` says of a queue whose `completed` jobs all finished and none failed or is left. */
export function settled(completed: number): JobCounts {
  return { ...Object.fromEntries(UNFINISHED.map((s) => [s, 0])), failed: 0, completed };
}

/**
 * Wait until these queues' job counts (BullMQ getJobCounts) satisfy `until`; default: nothing waiting, active,
 * delayed or prioritized in any of them.
 */
export async function waitForQueue(
  queues: Queue[],
  until: (counts: JobCounts[]) => boolean = (counts) => counts.every((c) => unfinished({ q: c }) === 0),
  timeoutMs = 20_000,
  everyMs = 30,
): Promise<JobCounts[]> {
  const t0 = Date.now();
  for (;;) {
    const counts = await Promise.all(queues.map(jobCounts));
    if (until(counts)) return counts;
    if (Date.now() - t0 > timeoutMs) throw new Error(`queues did not settle: ${JSON.stringify(counts)}`);
    await sleep(everyMs);
  }
}

/** Read-only handles on the queues of an account, to count jobs by state. */
export function openQueues(
  redisUrl: string,
  prefix: string,
  account = 'hardening',
): { counts(): Promise<Record<QueueKey, JobCounts>>; close(): Promise<void> } {
  const connection = { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as RedisConnectionOptions;
  const queues = QUEUE_KEYS.map(
    (k) => [k, new Queue(QUEUE_NAMES[k], { connection, prefix: bullPrefix(prefix, account) })] as const,
  );
  for (const [, q] of queues) q.on('error', () => undefined);
  return {
    async counts() {
      const out = {} as Record<QueueKey, JobCounts>;
      for (const [k, q] of queues) out[k] = await jobCounts(q);
      return out;
    },
    async close() {
      await Promise.allSettled(queues.map(([, q]) => q.close()));
    },
  };
}

/** Jobs not finished (waiting, active, delayed...), over these queues' counts (or only some of them). */
export function unfinished(c: Record<string, JobCounts>, only?: QueueKey[]): number {
  let n = 0;
  for (const [k, v] of Object.entries(c)) {
    if (only && !only.includes(k as QueueKey)) continue;
    n += (v.waiting ?? 0) + (v.active ?? 0) + (v.delayed ?? 0) + (v.prioritized ?? 0) + (v['waiting-children'] ?? 0);
  }
  return n;
}

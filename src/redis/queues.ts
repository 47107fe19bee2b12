/**
 * The BullMQ queues, one per module of src/queues/ (the five of the pipeline and `notify`, messages to people), and
 * the options they share.
 *
 * Retention and dedupe are chosen together (BullMQ re-adding the id of a job it still keeps is silently ignored):
 *   - ids are deterministic (src/queues/job-id.ts), so the same work enqueued twice while its job exists is one job;
 *   - completed jobs are kept for COMPLETED_KEEP_SECONDS (1 day, at most COMPLETED_KEEP_COUNT): a re-enqueue within
 *     that window is a no-op, a later one runs again and finds its work already done in the Redis records (the
 *     idempotency store, the file ledger) - those records, not job ids, are what guarantees "exactly once";
 *   - failed jobs are never removed automatically: they are what `rfq-sync failed list` shows and `failed retry`
 *     re-runs. While a failed job is kept, enqueuing its id again is ignored: retry it instead.
 * Queue prefix: `${REDIS_PREFIX}:${account}:bull`, so two sourcing accounts sharing a Redis never share queues.
 * Redis Cluster is not supported as is: BullMQ and our multi-key scripts would need `{...}` hash tags in the prefix.
 */
import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';
import { QUEUE_MODULES, type QueueKey, type QueueModule } from '../queues/index.ts';

export type RedisConnectionOptions = ConnectionOptions;

export const COMPLETED_KEEP_SECONDS = 24 * 3600;
export const COMPLETED_KEEP_COUNT = 50_000;

export type Queues = Record<QueueKey, Queue> & {
  all: Queue[];
  /** By BullMQ queue name ('create-rfq', ...). */
  byName(name: string): Queue | undefined;
  close(): Promise<void>;
};

/** BullMQ prefix for one account: every queue key lives under our own `${prefix}:${account}:` namespace. */
export function bullPrefix(redisPrefix: string, account: string): string {
  return `${redisPrefix}:${account}:bull`;
}

export function defaultJobOptions(defaults: { attempts: number; backoffMs: number }): DefaultJobOptions {
  return {
    attempts: defaults.attempts,
    backoff: { type: 'exponential', delay: defaults.backoffMs, jitter: 0.5 },
    removeOnComplete: { age: COMPLETED_KEEP_SECONDS, count: COMPLETED_KEEP_COUNT },
    removeOnFail: false,
  };
}

/**
 * `prefix` is the BullMQ prefix (see bullPrefix). Connection: plain options, each Queue opens its own client
 * (producers may fail fast, so maxRetriesPerRequest stays as given).
 */
export function createQueues(
  connection: RedisConnectionOptions,
  prefix: string,
  defaults: { attempts: number; backoffMs: number },
): Queues {
  const { byKey, ...rest } = createQueuesOf(QUEUE_MODULES, connection, prefix, defaults);
  return { ...(byKey as Record<QueueKey, Queue>), ...rest };
}

/** One Queue per module of `modules`, by its key (createQueues: the registered ones; a test may add its own). */
export function createQueuesOf(
  modules: readonly QueueModule[],
  connection: RedisConnectionOptions,
  prefix: string,
  defaults: { attempts: number; backoffMs: number },
): { byKey: Record<string, Queue> } & Pick<Queues, 'all' | 'byName' | 'close'> {
  const opts = { connection, prefix, defaultJobOptions: defaultJobOptions(defaults) };
  const all = modules.map((m) => new Queue(m.name, opts));
  for (const queue of all) queue.on('error', () => undefined); // connection errors surface on the calls themselves
  return {
    byKey: Object.fromEntries(modules.map((m, i) => [m.key, all[i]!])),
    all,
    byName: (name) => all.find((x) => x.name === name),
    async close() {
      await Promise.allSettled(all.map((x) => x.close()));
    },
  };
}

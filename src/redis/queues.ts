/**
 * The BullMQ queues: the five of the pipeline and `notify` (messages to people, src/notify/), and deterministic job
 * ids.
 *
 * Retention and dedupe are chosen together (BullMQ re-adding the id of a job it still keeps is silently ignored):
 *   - ids are deterministic (`jobId(kind, ...)`), so the same work enqueued twice while its job exists is one job;
 *   - completed jobs are kept for COMPLETED_KEEP_SECONDS (1 day, at most COMPLETED_KEEP_COUNT): a re-enqueue within
 *     that window is a no-op, a later one runs again and finds its work already done in the Redis records (the
 *     idempotency store, the file ledger) - those records, not job ids, are what guarantees "exactly once";
 *   - failed jobs are never removed automatically: they are what `rfq-sync failed list` shows and `failed retry`
 *     re-runs. While a failed job is kept, enqueuing its id again is ignored: retry it instead.
 * Queue prefix: `${REDIS_PREFIX}:${account}:bull`, so two sourcing accounts sharing a Redis never share queues.
 * Redis Cluster is not supported as is: BullMQ and our multi-key scripts would need `{...}` hash tags in the prefix.
 */
import { createHash } from 'node:crypto';
import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';
import { UnexpectedError } from '../core/index.ts';

export const QUEUE_NAMES = {
  ingest: 'ingest',
  createRfq: 'create-rfq',
  poll: 'poll',
  quotations: 'quotations',
  comparison: 'comparison',
  notify: 'notify',
} as const;
export type QueueKey = keyof typeof QUEUE_NAMES;
export type QueueName = (typeof QUEUE_NAMES)[QueueKey];
export const QUEUE_KEYS = Object.keys(QUEUE_NAMES) as QueueKey[];

export type RedisConnectionOptions = ConnectionOptions;

export const COMPLETED_KEEP_SECONDS = 24 * 3600;
export const COMPLETED_KEEP_COUNT = 50_000;

export interface Queues {
  ingest: Queue;
  createRfq: Queue;
  poll: Queue;
  quotations: Queue;
  comparison: Queue;
  notify: Queue;
  all: Queue[];
  /** By BullMQ queue name ('create-rfq', ...). */
  byName(name: string): Queue | undefined;
  close(): Promise<void>;
}

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
  const opts = { connection, prefix, defaultJobOptions: defaultJobOptions(defaults) };
  const q = {
    ingest: new Queue(QUEUE_NAMES.ingest, opts),
    createRfq: new Queue(QUEUE_NAMES.createRfq, opts),
    poll: new Queue(QUEUE_NAMES.poll, opts),
    quotations: new Queue(QUEUE_NAMES.quotations, opts),
    comparison: new Queue(QUEUE_NAMES.comparison, opts),
    notify: new Queue(QUEUE_NAMES.notify, opts),
  };
  const all = [q.ingest, q.createRfq, q.poll, q.quotations, q.comparison, q.notify];
  for (const queue of all) queue.on('error', () => undefined); // connection errors surface on the calls themselves
  return {
    ...q,
    all,
    byName: (name) => all.find((x) => x.name === name),
    async close() {
      await Promise.allSettled(all.map((x) => x.close()));
    },
  };
}

const SAFE_PART = /^[A-Za-z0-9_.=+@-]{1,64}$/;

/**
 * Deterministic, BullMQ-safe job id from parts: parts joined by `~`; a part that is long or holds anything but
 * `A-Z a-z 0-9 _ . = + @ -` becomes a readable stub plus `!` and 20 hex of its sha256 (`!` and `~` never appear in
 * a kept part, so different inputs cannot collide). Never contains `:`; never all digits (`#` is prepended then).
 */
export function jobId(...parts: Array<string | number>): string {
  if (parts.length === 0) throw new UnexpectedError('jobId needs at least one part');
  const id = parts
    .map((p) => {
      const s = String(p);
      if (SAFE_PART.test(s)) return s;
      const stub = s.replace(/[^A-Za-z0-9_.=+@-]+/g, '_').slice(0, 32);
      return `${stub}!${createHash('sha256').update(s).digest('hex').slice(0, 20)}`;
    })
    .join('~');
  return /^\d+$/.test(id) ? `#${id}` : id;
}

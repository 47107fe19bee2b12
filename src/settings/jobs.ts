/**
 * Settings: The queues: concurrency, attempts, locks, which queues a worker takes, recovery and the auth pause.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int } from './fields.ts';
import { QUEUE_NAME_LIST, type QueueName } from '../queues/index.ts';

/** The queues a worker can work on (WORKER_QUEUES), by their BullMQ names (src/queues/index.ts). */
export const WORKER_QUEUE_NAMES: readonly QueueName[] = QUEUE_NAME_LIST;
export type WorkerQueueName = QueueName;

export const jobSettings = {
  /** Files read at once per worker process. Default 1. */
  CONCURRENCY_INGEST: int(1, 64).default(1),
  /** RFQ creations at once per worker process. Default 8 (the rate limit still applies). */
  CONCURRENCY_CREATE: int(1, 256).default(8),
  /** Quotation pulls at once per worker process. Default 4. */
  CONCURRENCY_QUOTATIONS: int(1, 64).default(4),
  /** Comparison workbooks written at once per worker process. Default 1. */
  CONCURRENCY_COMPARISON: int(1, 16).default(1),
  /** Attempts of a job before it is kept as failed (`rfq-sync failed list`). Default 10. */
  JOB_ATTEMPTS: int(1, 1000).default(10),
  /** First retry delay of a failed job attempt, ms; doubles per attempt, with jitter. Default 1,000. */
  JOB_BACKOFF_MS: int(1, 3_600_000).default(1_000),
  /**
   * How long a worker holds a job it runs before another worker may take it, ms (BullMQ's job lock, renewed while the
   * job runs): the job of a worker that died waits this long before it is run again. Default 30,000.
   */
  JOB_LOCK_MS: int(500, 3_600_000).default(30_000),
  /** How often a worker looks for jobs whose worker died (their lock expired) and puts them back, ms. Default 30,000. */
  STALLED_CHECK_MS: int(200, 3_600_000).default(30_000),
  /**
   * Times a job may be taken back from a worker that died before it is kept as failed (a re-run is harmless: the
   * Redis records make it so). Default 5.
   */
  JOB_MAX_STALLED: int(0, 1_000_000).default(5),
  /**
   * Queues the `worker` command works on, comma-separated: ingest, create-rfq, poll, quotations, comparison, notify
   * (the inbox watcher and the schedules run anyway). Default: all six.
   */
  WORKER_QUEUES: z
    .string()
    .transform((v, c) => {
      const names = v
        .split(',')
        .map((q) => q.trim())
        .filter(Boolean);
      const bad = names.filter((q) => !(WORKER_QUEUE_NAMES as readonly string[]).includes(q));
      if (bad.length > 0 || names.length === 0) {
        c.addIssue({ code: 'custom', message: `must name queues among ${WORKER_QUEUE_NAMES.join(', ')}` });
        return z.NEVER;
      }
      return names as WorkerQueueName[];
    })
    .default([...WORKER_QUEUE_NAMES]),
  /**
   * Age after which a file left in processing/ (taken from the inbox by a worker that died before queueing it) is
   * taken up again, ms. Default 600,000 (10 minutes).
   */
  INBOX_RECOVER_AFTER_MS: int(1_000, 86_400_000).default(600_000),
  /**
   * How often a worker re-reads the token file (SOURCING_TOKEN_FILE: a replaced token resumes a pause at once), and
   * the first wait before the same refused token is tried again: then twice as long after each try, at most every
   * 15 minutes, so a pause lifts itself once the service accepts the token again. ms. Default 5,000.
   */
  AUTH_CHECK_MS: int(100, 3_600_000).default(5_000),
};

/**
 * The queues: one module per queue (its name, payload schemas, job ids, enqueue functions and options), and the
 * list of them, from which the queue names, the queues' creation (src/redis/queues.ts) and the worker's tables
 * (jobs/worker.ts) are derived. A new queue is a module here plus its line in QUEUE_MODULES (and its processor in
 * jobs/). Nothing outside this folder spells a queue's name, job id or payload (test/architecture/queue-contracts).
 */
import { comparisonQueue } from './comparison.ts';
import { createRfqQueue } from './create-rfq.ts';
import { ingestQueue } from './ingest.ts';
import { notifyQueue } from './notify.ts';
import { pollQueue } from './poll.ts';
import { quotationsQueue } from './quotations.ts';

export const QUEUE_MODULES = [
  ingestQueue,
  createRfqQueue,
  pollQueue,
  quotationsQueue,
  comparisonQueue,
  notifyQueue,
] as const;

type Registered = (typeof QUEUE_MODULES)[number];
export type QueueKey = Registered['key'];
export type QueueName = Registered['name'];

/** BullMQ queue name by key (`createRfq: 'create-rfq'`...). */
export const QUEUE_NAMES = Object.fromEntries(QUEUE_MODULES.map((m) => [m.key, m.name])) as {
  readonly [M in Registered as M['key']]: M['name'];
};
export const QUEUE_KEYS: QueueKey[] = QUEUE_MODULES.map((m) => m.key);
/** The BullMQ names of all queues, in the list's order. */
export const QUEUE_NAME_LIST: readonly QueueName[] = QUEUE_MODULES.map((m) => m.name);

export { type QueueModule, parseJob, payloadProblems } from './queue-module.ts';
export { jobId } from './job-id.ts';
export { comparisonQueue, comparisonJobSchema, enqueueComparison, type ComparisonJobData } from './comparison.ts';
export {
  createRfqQueue,
  createRfqJobId,
  createRfqPayloadSchema,
  enqueueCreateRfq,
  requisitionLineSchema,
  requisitionSchema,
  type CreateRfqPayload,
  type QueuedAgain,
} from './create-rfq.ts';
export { enqueueIngest, ingestJobId, ingestJobPayloadSchema, ingestQueue, type IngestJobPayload } from './ingest.ts';
export { enqueueNotify, notifyJobSchema, notifyQueue, type NotifyJobData, type NotifyJobOptions } from './notify.ts';
export {
  enqueueOverview,
  enqueuePoll,
  enqueuePollNow,
  OVERVIEW_JOB,
  overviewJobSchema,
  pollJobId,
  pollJobSchema,
  pollQueue,
  type OverviewJobData,
  type PollJobData,
  pollSlot,
  pollSlotKind,
  type PollSlotKind,
} from './poll.ts';
export {
  enqueueQuotations,
  quotationsJobSchema,
  quotationsQueue,
  quotationsReasons,
  type QuotationsJobData,
  type QuotationsReason,
} from './quotations.ts';
export { decodeBackslashes, isPlainName, parseProcessingName, type ProcessingName } from './processing-name.ts';

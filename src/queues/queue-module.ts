/**
 * What a queue module declares (one file per queue in src/queues/, listed in src/queues/index.ts), and the one way
 * its consumer reads a payload: a payload its schema refuses fails the job for good, named (E_JOB_PAYLOAD: the
 * queue, the job id, the field and why), and the worker goes on with the next job.
 */
import type { Job } from 'bullmq';
import type { z } from 'zod';
import { InvalidJobPayloadError } from '../core/index.ts';

export interface QueueModule<K extends string = string, N extends string = string> {
  /** Its property in `Queues` (src/redis/queues.ts createQueues) and in the worker's tables (jobs/worker.ts). */
  readonly key: K;
  /** BullMQ queue name: part of the Redis keys of its jobs, so never renamed. */
  readonly name: N;
  /** The payload schema of each job name the queue takes. */
  readonly jobs: Readonly<Record<string, z.ZodType>>;
  /** First parts of its job ids (`jobId(prefix, ...)`), each used by this queue alone. */
  readonly idPrefixes: readonly string[];
}

/** The issues zod found, as field and reason (at most 5: the failed list shows them all). */
export function payloadProblems(error: z.ZodError): Array<{ field: string; reason: string }> {
  return error.issues.slice(0, 5).map((i) => ({ field: i.path.join('.') || '(payload)', reason: i.message }));
}

/** A job of queue M as its consumer reads it: its name and its payload, parsed by that name's schema. */
export type ParsedJob<M extends QueueModule> = {
  [J in keyof M['jobs'] & string]: { name: J; data: z.infer<M['jobs'][J]> };
}[keyof M['jobs'] & string];

/**
 * A job of `queue`, its payload parsed with the schema of its name; a job name the queue does not know or a payload
 * the schema refuses throws InvalidJobPayloadError, which BullMQ takes as unrecoverable: the job goes to the failed
 * list at once, not retried, its reason the error's message.
 */
export function parseJob<M extends QueueModule>(queue: M, job: Pick<Job, 'id' | 'name' | 'data'>): ParsedJob<M> {
  const schema = Object.hasOwn(queue.jobs, job.name) ? queue.jobs[job.name] : undefined;
  if (!schema)
    throw refused(queue, job, [
      { field: '(job name)', reason: `${JSON.stringify(job.name)} is not a job of this queue` },
    ]);
  const parsed = schema.safeParse(job.data);
  if (!parsed.success) throw refused(queue, job, payloadProblems(parsed.error));
  return { name: job.name, data: parsed.data } as ParsedJob<M>;
}

function refused(
  queue: QueueModule,
  job: Pick<Job, 'id'>,
  problems: Array<{ field: string; reason: string }>,
): InvalidJobPayloadError {
  return new InvalidJobPayloadError({ queue: queue.name, jobId: String(job.id), problems });
}

/**
 * A queue added for test/queues/new-queue.test.ts, whole in this one file as a real one would be in src/queues/ (its
 * processor would be in jobs/): its name, payload schema, job id, enqueue function and options.
 */
import type { Job, Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from '../../src/queues/job-id.ts';
import { parseJob, type QueueModule } from '../../src/queues/queue-module.ts';

export const echoJobSchema = z.object({ text: z.string().min(1).max(20) });
export type EchoJobData = z.infer<typeof echoJobSchema>;

export const echoQueue = {
  key: 'echo',
  name: 'echo',
  jobs: { echo: echoJobSchema },
  idPrefixes: ['echo'],
} as const satisfies QueueModule;

/** Kept once done (the test reads the return value), two attempts. */
const ECHO_JOB_OPTS = { attempts: 2, removeOnComplete: false } as const;

export function echoJobId(text: string): string {
  return jobId('echo', text);
}

export async function enqueueEcho(queue: Pick<Queue, 'add'>, data: EchoJobData): Promise<string> {
  const id = echoJobId(data.text);
  await queue.add('echo', data, { jobId: id, ...ECHO_JOB_OPTS });
  return id;
}

/** Its processor: the text in capitals. */
export function echoProcessor(): (job: Job) => Promise<string> {
  return async (job) => parseJob(echoQueue, job).data.text.toUpperCase();
}

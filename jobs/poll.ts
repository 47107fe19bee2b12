/** Poll queue processor: one poll of every status list (src/tracking/poll-runner.ts). */
import type { Job } from 'bullmq';
import type { WorkerContext } from '../src/pipeline/context.ts';
import { deferWhilePaused, handleServiceError } from '../src/tracking/service-errors.ts';
import type { PollJobData } from '../src/tracking/enqueue.ts';
import { runPoll } from '../src/tracking/poll-runner.ts';

export async function processPoll(ctx: WorkerContext, job: Job): Promise<unknown> {
  await deferWhilePaused(ctx, job);
  try {
    return await runPoll(ctx, job.data as PollJobData);
  } catch (err) {
    return handleServiceError(ctx, job, err);
  }
}

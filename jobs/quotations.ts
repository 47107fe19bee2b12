/** Quotations queue processor: pull quotations, decide on a new comparison version (src/tracking/quotations-runner.ts). */
import type { Job } from 'bullmq';
import type { WorkerContext } from '../src/pipeline/context.ts';
import { deferWhilePaused, handleServiceError } from '../src/tracking/service-errors.ts';
import type { QuotationsJobData } from '../src/tracking/enqueue.ts';
import { runQuotations } from '../src/tracking/quotations-runner.ts';

export async function processQuotations(ctx: WorkerContext, job: Job): Promise<unknown> {
  await deferWhilePaused(ctx, job);
  try {
    return await runQuotations(ctx, job.data as QuotationsJobData);
  } catch (err) {
    return handleServiceError(ctx, job, err);
  }
}

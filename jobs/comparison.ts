/** Comparison queue processor: write one version of the workbook and award CSV (src/tracking/comparison-runner.ts). */
import type { Job } from 'bullmq';
import type { WorkerContext } from '../src/pipeline/context.ts';
import { handleServiceError } from '../src/tracking/service-errors.ts';
import { runComparison } from '../src/tracking/comparison-runner.ts';
import type { ComparisonJobData } from '../src/tracking/enqueue.ts';

export async function processComparison(ctx: WorkerContext, job: Job): Promise<unknown> {
  try {
    return await runComparison(ctx, job.data as ComparisonJobData);
  } catch (err) {
    // Only a re-pull (snapshot too large or gone) calls the service; a refused token delays it like the others.
    return handleServiceError(ctx, job, err);
  }
}

/**
 * Queue `comparison`: write one version of an RFQ's outputs (jobs/comparison.ts), asked for by quotations jobs.
 *
 * Payload: { rfqId, version } (comparisonJobSchema).
 * Job id:  `comparison~<rfq>~v<version>`: each version is written once.
 * Options: the queues' defaults.
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from './job-id.ts';
import type { QueueModule } from './queue-module.ts';

export const comparisonJobSchema = z.object({
  rfqId: z.number().int().positive(),
  version: z.number().int().positive(),
});
export type ComparisonJobData = z.infer<typeof comparisonJobSchema>;

export const comparisonQueue = {
  key: 'comparison',
  name: 'comparison',
  jobs: { comparison: comparisonJobSchema },
  idPrefixes: ['comparison'],
} as const satisfies QueueModule;

export async function enqueueComparison(
  ctx: { queues: { comparison: Pick<Queue, 'add'> } },
  data: ComparisonJobData,
): Promise<string> {
  const id = jobId('comparison', data.rfqId, `v${data.version}`);
  await ctx.queues.comparison.add('comparison', data, { jobId: id });
  return id;
}

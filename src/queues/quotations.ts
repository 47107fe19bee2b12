/**
 * Queue `quotations`: pull the quotations of one RFQ (jobs/quotations.ts), asked for by polls and `rfq-sync pull`.
 *
 * Payload: { rfqId, reason: closed | check | award | manual } (quotationsJobSchema).
 * Job id:  `quotations~<rfq>~closed` and `~award` (once per transition; a re-add while kept is a no-op, and a re-run
 *          finds its work done), `~check~<slot>` (the revision check of one poll), `~manual~<slot or ms>`.
 * Options: the queues' defaults; a revision check: 3 attempts, removed once done, failed kept an hour.
 */
import type { JobsOptions, Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from './job-id.ts';
import type { QueueModule } from './queue-module.ts';

export const quotationsReasons = ['closed', 'check', 'award', 'manual'] as const;
export type QuotationsReason = (typeof quotationsReasons)[number];
export const quotationsJobSchema = z.object({
  rfqId: z.number().int().positive(),
  reason: z.enum(quotationsReasons),
});
export type QuotationsJobData = z.infer<typeof quotationsJobSchema>;

export const quotationsQueue = {
  key: 'quotations',
  name: 'quotations',
  jobs: { quotations: quotationsJobSchema },
  idPrefixes: ['quotations'],
} as const satisfies QueueModule;

/** Revision checks run every poll for every closed RFQ: not worth keeping once done, and retried by the next poll. */
const CHECK_JOB_OPTS: JobsOptions = { attempts: 3, removeOnComplete: true, removeOnFail: { age: 3600 } };

export async function enqueueQuotations(
  ctx: { queues: { quotations: Pick<Queue, 'add'> } },
  data: QuotationsJobData,
  slot?: string,
): Promise<string> {
  const id =
    data.reason === 'check' || data.reason === 'manual'
      ? jobId('quotations', data.rfqId, data.reason, slot ?? Date.now())
      : jobId('quotations', data.rfqId, data.reason);
  await ctx.queues.quotations.add('quotations', data, {
    jobId: id,
    ...(data.reason === 'check' ? CHECK_JOB_OPTS : {}),
  });
  return id;
}

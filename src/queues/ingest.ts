/**
 * Queue `ingest`: one job per file taken from the inbox (produced by src/intake/inbox-intake.ts, run by
 * jobs/ingest.ts).
 *
 * Payload: { sha256, processingName, mapping?, size?, mtimeMs?, origin? } (ingestJobPayloadSchema).
 * Job id:  `ingest~<sha256>~<take token>`, `~g<n>` appended when the file is admitted again after its job completed
 *          (BullMQ would silently ignore a re-add under the completed job's id).
 * Options: the queues' defaults (src/redis/queues.ts defaultJobOptions).
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { jobId } from './job-id.ts';
import { isPlainName, parseProcessingName } from './processing-name.ts';
import type { QueueModule } from './queue-module.ts';

/** The ingest job's payload. The original name and take time are read back from the name. */
export const ingestJobPayloadSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'),
  processingName: z
    .string()
    .min(1)
    .max(255)
    .refine((n) => isPlainName(n) && parseProcessingName(n) !== undefined, 'must be a name made by the inbox'),
  /** Mapping profile forced by `rfq-sync ingest FILE --mapping NAME`; else chosen per file. */
  mapping: z.string().min(1).max(200).optional(),
  /** Size and mtime when its bytes were hashed: a file that differs at the end of the read changed while being read. */
  size: z.number().int().nonnegative().optional(),
  mtimeMs: z.number().nonnegative().optional(),
  /** Where it was taken: the host and the identity of its data folder (intake-folder.ts), for the job's errors. */
  origin: z.object({ host: z.string().max(255), folder: z.string().max(100) }).optional(),
});
export type IngestJobPayload = z.infer<typeof ingestJobPayloadSchema>;

export const ingestQueue = {
  key: 'ingest',
  name: 'ingest',
  jobs: { ingest: ingestJobPayloadSchema },
  idPrefixes: ['ingest'],
} as const satisfies QueueModule;

export function ingestJobId(sha256: string, token: string, generation = 1): string {
  return generation === 1 ? jobId('ingest', sha256, token) : jobId('ingest', sha256, token, `g${generation}`);
}

/**
 * The job id for a taken file being admitted: the same while its job waits, runs or failed (two admissions are one
 * job; a failed one waits for `failed retry`), a new one when its job completed and the file is still in processing/
 * (re-admitted): BullMQ would silently ignore a re-add under the completed job's id, and the file would never run.
 */
async function freshIngestJobId(queue: Pick<Queue, 'getJobState'>, sha256: string, token: string): Promise<string> {
  for (let generation = 1; ; generation++) {
    const id = ingestJobId(sha256, token, generation);
    if (generation >= 100 || (await queue.getJobState(id)) !== 'completed') return id;
  }
}

/** The ingest job of a taken file (`token`: its take token); returns the job id. */
export async function enqueueIngest(
  queue: Pick<Queue, 'add' | 'getJobState'>,
  payload: IngestJobPayload,
  token: string,
): Promise<string> {
  const id = await freshIngestJobId(queue, payload.sha256, token);
  await queue.add('ingest', payload, { jobId: id });
  return id;
}

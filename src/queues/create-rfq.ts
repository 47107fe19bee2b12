/**
 * Queue `create-rfq`: one job per requisition -> exactly one RFQ (produced by jobs/ingest.ts, `rfq-sync resolve` and
 * `rfq-sync recover`; run by jobs/create-rfq.ts).
 *
 * Payload: { requisition: Requisition } (createRfqPayloadSchema). src/core/requisition.ts's interface and
 *          requisitionSchema are held equal at compile time (RequisitionSchemaMatches below).
 * Job id:  `create~<profile>~<key>~<content hash>`: the same requisition with the same content enqueued twice is one
 *          job; changed content is another. Queued again by a person (`resolve`, `recover`): `~<why>~<ms>` appended,
 *          a job of its own whatever ran before.
 * Options: the queues' defaults (src/redis/queues.ts defaultJobOptions).
 */
import type { Job, Queue } from 'bullmq';
import { z } from 'zod';
import type { Requisition } from '../core/index.ts';
import { jobId } from './job-id.ts';
import type { QueueModule } from './queue-module.ts';

export const requisitionLineSchema = z.object({
  external_id: z.string().min(1),
  product_name: z.string().min(1),
  specification: z.string().optional(),
  uom: z.string().optional(),
  qty: z.number().int().positive(),
  estimated_price: z.number().int().nonnegative().optional(),
  unit_price: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .optional(),
  price_unit: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .optional(),
  /** The ERP's material number (profile field product_code): kept with the tracked RFQ for the price history. */
  product_code: z.string().max(80).optional(),
  row: z.number().int(),
});

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const requisitionSchema = z.object({
  key: z.string().min(1),
  sourceFile: z.string(),
  profile: z.string().min(1),
  title: z.string().min(1),
  description: z.string().optional(),
  due_date: z.number().int(),
  required_date: z.number().int().optional(),
  rfq_type: z.enum(['Public', 'Private']),
  rfq_category: z.string().optional(),
  rfq_location: z.string().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  erp_days: z.object({ due_date: isoDay.optional(), required_date: isoDay.optional() }).optional(),
  lines: z.array(requisitionLineSchema).min(1),
});

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Holds<T extends true> = T;
/** Fails to compile when src/core/requisition.ts's interface and requisitionSchema say different things. */
export type RequisitionSchemaMatches = Holds<Same<z.infer<typeof requisitionSchema>, Requisition>>;

export const createRfqPayloadSchema = z.object({ requisition: requisitionSchema });
export type CreateRfqPayload = z.infer<typeof createRfqPayloadSchema>;

export const createRfqQueue = {
  key: 'createRfq',
  name: 'create-rfq',
  jobs: { 'create-rfq': createRfqPayloadSchema },
  idPrefixes: ['create'],
} as const satisfies QueueModule;

/** Why a person queued a requisition again (`rfq-sync resolve`, `rfq-sync recover`), and when (ms). */
export interface QueuedAgain {
  why: 'resolved' | 'recover';
  at: number;
}

/** The job id of a requisition's create-rfq job; `contentHash`: src/creation/rfq-creator.ts contentHashOf. */
export function createRfqJobId(
  r: Pick<Requisition, 'profile' | 'key'>,
  contentHash: string,
  again?: QueuedAgain,
): string {
  return again
    ? jobId('create', r.profile, r.key, contentHash, again.why, again.at)
    : jobId('create', r.profile, r.key, contentHash);
}

/** Enqueue one requisition; the same requisition with the same content enqueued again is the same job. */
export async function enqueueCreateRfq(
  queue: Pick<Queue, 'add'>,
  requisition: Requisition,
  contentHash: string,
  again?: QueuedAgain,
): Promise<Job> {
  const payload: CreateRfqPayload = { requisition };
  return queue.add('create-rfq', payload, { jobId: createRfqJobId(requisition, contentHash, again) });
}

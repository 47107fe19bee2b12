/**
 * Creating an RFQ (POST /v1/rfqs): the request checked against its schema before it is sent (a bad one is never
 * sent), `rfq_type` normalised, the new RFQ's id read from the answer.
 */
import { InvalidRequestError } from '../../core/index.ts';
import { invalidResponse, type ClientContext } from './context.ts';
import { createRfqRequestSchema, createRfqResponseSchema, firstIssue } from '../schemas.ts';
import type { CreateRfqRequest } from '../types.ts';

export async function createRfq(
  c: ClientContext,
  body: CreateRfqRequest,
  opts: { signal?: AbortSignal; deadlineMs?: number } = {},
): Promise<{ _id: number }> {
  const normalised = { ...body, rfq_type: normaliseRfqType(body.rfq_type) };
  const checked = createRfqRequestSchema.safeParse(normalised);
  if (!checked.success) {
    const { field, reason } = firstIssue(checked.error);
    throw new InvalidRequestError('createRfq', `request not sent: field ${field}: ${reason}`);
  }
  const { json } = await c.transport.requestJson({
    operation: 'createRfq',
    method: 'POST',
    path: '/v1/rfqs',
    body: checked.data,
    signal: opts.signal,
    deadlineMs: opts.deadlineMs,
  });
  const parsed = createRfqResponseSchema.safeParse(json);
  if (!parsed.success) throw invalidResponse('createRfq', parsed.error);
  return { _id: parsed.data.rfq._id };
}

/**
 * `public`, `PUBLIC`... -> `Public`: any case in, `Public` or `Private` out
 * (docs/architecture.md#where-the-interface-is-silent).
 */
export function normaliseRfqType(t: string): 'Public' | 'Private' {
  const v = String(t).trim().toLowerCase();
  if (v === 'public') return 'Public';
  if (v === 'private') return 'Private';
  return t as 'Public' | 'Private'; // the schema check names it
}

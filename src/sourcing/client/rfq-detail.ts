/**
 * The calls on one RFQ by id: its detail (GET /v1/rfqs/{id}) and its header edit (PUT /v1/rfqs/{id}). Not every
 * service has them; the dialect (dialect.ts) tells whether they exist.
 */
import { InvalidRequestError, InvalidResponseError, PermanentHttpError } from '../../core/index.ts';
import { checkRfqId, invalidResponse, type ClientContext } from './context.ts';
import { parseListedRfq } from './listed-rfq.ts';
import { editRfqRequestSchema, firstIssue, rfqDetailEnvelopeSchema } from '../schemas.ts';
import type { InvalidListedRfq } from '../port.ts';
import type { ListedRfq, RfqHeaderEdit } from '../types.ts';

export async function getRfq(
  c: ClientContext,
  rfqId: number,
  opts: { onInvalid?: (bad: InvalidListedRfq) => void } = {},
): Promise<ListedRfq | undefined> {
  checkRfqId('getRfq', rfqId);
  let json: unknown;
  try {
    ({ json } = await c.transport.requestJson({ operation: 'getRfq', method: 'GET', path: `/v1/rfqs/${rfqId}` }));
  } catch (err) {
    // 404: no such RFQ, or (where the service has no detail call) no such endpoint: the dialect tells which
    if (err instanceof PermanentHttpError && err.status === 404) return undefined;
    throw err;
  }
  const env = rfqDetailEnvelopeSchema.safeParse(json);
  if (!env.success) throw invalidResponse('getRfq', env.error, rfqId);
  const r = parseListedRfq(env.data.rfq, 0, 1);
  if ('error' in r) {
    const error = new InvalidResponseError({ operation: 'getRfq', field: r.field, reason: r.reason, rfqId });
    if (!opts.onInvalid) throw error;
    opts.onInvalid({ ...r, error });
    return undefined;
  }
  if (r._id !== rfqId)
    throw new InvalidResponseError({
      operation: 'getRfq',
      field: 'rfq._id',
      reason: `answer is for RFQ ${r._id}`,
      rfqId,
    });
  return r;
}

export async function editRfq(c: ClientContext, rfqId: number, header: RfqHeaderEdit): Promise<void> {
  checkRfqId('editRfq', rfqId);
  const checked = editRfqRequestSchema.safeParse(header);
  if (!checked.success) {
    const { field, reason } = firstIssue(checked.error);
    throw new InvalidRequestError('editRfq', `request not sent: field ${field}: ${reason}`);
  }
  await c.transport.requestJson({ operation: 'editRfq', method: 'PUT', path: `/v1/rfqs/${rfqId}`, body: checked.data });
}

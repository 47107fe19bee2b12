/**
 * Find one RFQ and its state. Where the service has the detail call, one request (its state is the record's
 * lower-case status); otherwise the lists of the dialect: the proven filter form (the state is the list it was
 * found in), or the unfiltered list with the state read from the record's label.
 */
import type { Dialect } from '../sourcing/dialect.ts';
import type { SourcingPort } from '../sourcing/port.ts';
import { RFQ_STATUSES, type ListedRfq, type RfqStatusFilter } from '../sourcing/types.ts';

export async function findListedRfq(
  client: Pick<SourcingPort, 'listRfqs'> & Partial<Pick<SourcingPort, 'getRfq'>>,
  rfqId: number,
  dialect?: Pick<Dialect, 'filter' | 'detail'>,
): Promise<{ rfq: ListedRfq; state: RfqStatusFilter } | undefined> {
  if (dialect?.detail === 'yes' && client.getRfq) {
    const rfq = await client.getRfq(rfqId);
    if (rfq?.labelState) return { rfq, state: rfq.labelState };
    if (!rfq) return undefined;
  }
  // Another RFQ's bad record is no reason to fail (each poll reports it); ours unreadable is: the caller retries.
  const onInvalid = (bad: { rfqId?: number; error: Error }) => {
    if (bad.rfqId === rfqId) throw bad.error;
  };
  const form = dialect?.filter ?? 'lower';
  if (form === 'none') {
    for await (const rfq of client.listRfqs(null, { onInvalid }))
      if (rfq._id === rfqId) return rfq.labelState ? { rfq, state: rfq.labelState } : undefined;
    return undefined;
  }
  // Latest states first: an RFQ moving while we look is found in its newer list.
  for (const state of [...RFQ_STATUSES].reverse()) {
    for await (const rfq of client.listRfqs({ state, form }, { onInvalid }))
      if (rfq._id === rfqId) return { rfq, state };
  }
  return undefined;
}

/** Find one RFQ in the status lists (the service has no GET by id): its state is the list it was found in. */
import type { SourcingClient } from '../sourcing/client.ts';
import { RFQ_STATUSES, type ListedRfq, type RfqStatusFilter } from '../sourcing/types.ts';

export async function findListedRfq(
  client: Pick<SourcingClient, 'listRfqs'>,
  rfqId: number,
  order: readonly RfqStatusFilter[] = [...RFQ_STATUSES].reverse(),
): Promise<{ rfq: ListedRfq; state: RfqStatusFilter } | undefined> {
  // Another RFQ's bad record is no reason to fail (each poll reports it); ours unreadable is: the caller retries.
  const onInvalid = (bad: { rfqId?: number; error: Error }) => {
    if (bad.rfqId === rfqId) throw bad.error;
  };
  // Latest states first: an RFQ moving while we look is found in its newer list.
  for (const state of order) {
    for await (const rfq of client.listRfqs(state, { onInvalid })) if (rfq._id === rfqId) return { rfq, state };
  }
  return undefined;
}

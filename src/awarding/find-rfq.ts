/**
 * Find one RFQ and its state, the way the account's dialect makes cheapest (src/sourcing/listing-strategy.ts): the
 * detail call where the service has it (its state is the record's lower-case status), otherwise the lists of the
 * proven filter form (the state is the list it was found in), or the unfiltered list (the state from the label).
 */
import {
  type Dialect,
  listingStrategyFor,
  type ListingPort,
  type ListedRfq,
  type RfqStatusFilter,
} from '../sourcing/index.ts';

export async function findListedRfq(
  client: ListingPort,
  rfqId: number,
  dialect?: Pick<Dialect, 'filter' | 'detail'>,
): Promise<{ rfq: ListedRfq; state: RfqStatusFilter } | undefined> {
  return listingStrategyFor(dialect).find(client, rfqId);
}

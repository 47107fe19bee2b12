/**
 * The smallest reading that can show the state of a few named RFQs now (a webhook's targeted check,
 * src/tracking/poll/hint-check.ts), chosen from the account's dialect like the listing strategies:
 *
 * - the detail call, one per RFQ, where the service has one (its state from the answer's label);
 * - else, with a proven filter form, the closed list from its newest end only (page 1 and the last page, where a list
 *   sorted by creation shows its newest RFQs: one request when the list is one page): a closing is what a waiting
 *   comparison depends on; an RFQ not found there is left to the poll;
 * - else nothing (the unfiltered list would cost as much as a poll): the poll does it.
 *
 * Each RFQ read goes to the sink, as in a poll; the figures count the requests sent.
 */
import type { AccountFacts } from './account-reading.ts';
import { detailCalls, readList } from './list-walk.ts';
import { noFigures, type ListingFigures, type ListingPort, type TrackedStatesRequest } from './listing-types.ts';

export interface TargetedReading {
  /** How the named RFQs are read on this dialect; undefined: no reading is smaller than a poll. */
  readonly name: string | undefined;
  read(port: ListingPort, req: TrackedStatesRequest, ids: readonly number[]): Promise<ListingFigures>;
}

export function targetedReadingFor(d: AccountFacts | undefined): TargetedReading {
  const facts = d ?? { filter: 'lower', detail: 'no' };
  if (facts.detail === 'yes') {
    const name = 'detail calls';
    return {
      name,
      async read(port, req, ids) {
        const f = noFigures(name);
        await detailCalls(port, req, f, [...ids], new Set(ids));
        return f;
      },
    };
  }
  const form = facts.filter;
  if (form !== 'none') {
    const name = `the closed list's newest end (${form})`;
    return {
      name,
      async read(port, req, ids) {
        const f = noFigures(name);
        const left = new Set(ids);
        const note: TrackedStatesRequest = {
          ...req,
          sink: { ...req.sink, found: (state, rfq, from) => (left.delete(rfq._id), req.sink.found(state, rfq, from)) },
        };
        await readList(port, note, f, 'closed', { state: 'closed', form }, () => left.size === 0, 'edges');
        return f;
      },
    };
  }
  return { name: undefined, read: async () => noFigures('none') };
}

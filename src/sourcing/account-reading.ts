/**
 * How the whole account is read, chosen with the listing strategy from the account's dialect (listingStrategyFor),
 * so the reconcile and the list-lag probe never branch on what the service can do:
 *
 * - the lists that together hold every RFQ (the reconcile's walk): the unfiltered list where the service has it,
 *   else the four state lists in a proven filter form, in lifecycle order (open -> closed -> cancelled ->
 *   completed; every transition goes forward in it, so an RFQ moving during the walk is met again in a later list
 *   instead of slipping between two); with neither, absence can never be proven;
 * - the list where a new RFQ of ours shows first (the list-lag probe);
 * - which RFQs read could still be ours without carrying external_ids (none where the lists show them);
 * - each RFQ as the detail call shows it, where the service has one.
 */
import type { Dialect } from './dialect.ts';
import type { SourcingPort } from './port.ts';
import { RFQ_STATUSES, type ListedRfq, type ListFilter } from './types.ts';

export interface AccountReading {
  /** The lists that together hold every RFQ of the account, in the order to read them; undefined: none do. */
  readonly accountLists: readonly ListFilter[] | undefined;
  /** The list where a new RFQ of ours shows first (the list-lag probe); undefined where there is none. */
  readonly newestList: ListFilter | undefined;
  /** The RFQs of `rfqs` that could be one of ours though they carry no external_ids. */
  unmarked(rfqs: Iterable<ListedRfq>): ListedRfq[];
  /** Each RFQ as the detail call shows it (the list's date kept where the call has none); as listed without one. */
  detailed(port: Pick<SourcingPort, 'getRfq'>, rfqs: readonly ListedRfq[]): Promise<ListedRfq[]>;
}

export type AccountFacts = Pick<Dialect, 'filter' | 'detail'> & Partial<Pick<Dialect, 'unfiltered' | 'echo'>>;

export const hasExternalIds = (r: ListedRfq) =>
  r.lines.some((l) => l.external_id !== undefined && l.external_id !== '');

export function accountReadingFor(d: AccountFacts): AccountReading {
  const form = d.filter;
  const stateLists = form === 'none' ? undefined : RFQ_STATUSES.map((state): ListFilter => ({ state, form }));
  const unfiltered = d.unfiltered === 'yes';
  return {
    accountLists: unfiltered ? ['all'] : stateLists,
    newestList: unfiltered ? 'all' : stateLists?.[0],
    // where lists echo external_ids, an RFQ listed without them is not ours
    unmarked: (rfqs) => (d.echo === 'yes' ? [] : [...rfqs].filter((r) => !hasExternalIds(r))),
    detailed:
      d.detail === 'yes'
        ? async (port, rfqs) => {
            const out: ListedRfq[] = [];
            for (const r of rfqs) {
              const got = await port.getRfq(r._id);
              out.push(got ? { ...got, rfq_date: got.rfq_date ?? r.rfq_date } : r);
            }
            return out;
          }
        : async (_port, rfqs) => [...rfqs],
  };
}

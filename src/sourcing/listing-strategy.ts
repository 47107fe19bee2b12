/**
 * The listing strategies: how the states of the tracked RFQs that can still change are read, chosen once from the
 * account's dialect (listingStrategyFor), so no caller branches on what the service can do. Completed and cancelled
 * RFQs never change again, so a poll's cost follows what can change, not the account's history:
 *
 * - `filtered` (a proven filter form): the open and closed lists in full; a tracked RFQ in neither has left them
 *   for good, and is settled by the cheaper of one detail call each (where the service has it) and the cancelled
 *   and completed lists read from their newest end only as far as needed (list-walk.ts; where their `_id` order is
 *   proven by the lists read in full and checked on every page read, else in full until every one is found).
 * - `labels` (no proven form): the tracked RFQs' detail calls where they cost fewer requests than the unfiltered
 *   list, else the unfiltered list until every tracked RFQ has been seen, each state from its record's label.
 *
 * Either way the result is exact: a state is only ever what a list or the detail call showed, and a tracked RFQ is
 * reported missing only once every list it could be in was read in full, or as far as the proven order shows it is
 * in none, or the detail call answered 404.
 */
import { accountReadingFor, type AccountFacts } from './account-reading.ts';
import type { Dialect } from './dialect.ts';
import { idOrderOf, type IdOrder } from './list-coverage.ts';
import { detailCalls, findByDetail, findIn, readList, walkFor } from './list-walk.ts';
import {
  noFigures,
  type ListingFigures,
  type ListingPort,
  type ListingStrategy,
  type ListName,
  type StateSink,
  type TrackedStatesRequest,
} from './listing-types.ts';
import { RFQ_STATUSES, type FilterForm, type RfqState } from './types.ts';

type DialectFacts = AccountFacts & Partial<Pick<Dialect, 'accountTotal' | 'pageSize'>>;

/** The strategy for a dialect; without one (tracking tested alone), the lower-case filter and no detail call. */
export function listingStrategyFor(d: DialectFacts | undefined): ListingStrategy {
  const facts: DialectFacts = d ?? { filter: 'lower', detail: 'no' };
  const states = facts.filter === 'none' ? labelsStrategy(facts) : filteredStrategy(facts, facts.filter);
  return { ...states, ...accountReadingFor(facts) };
}

/** What the two strategies below differ in: how the tracked RFQs' states are read, and one RFQ found. */
type StatesReading = Pick<ListingStrategy, 'name' | 'read' | 'find'>;

const DEFAULT_PAGE_SIZE = 20;
const FINAL: readonly RfqState[] = ['cancelled', 'completed'];

/** The request's sink, also noting which RFQs were seen (found, unlabelled, or readable in a broken record). */
function noting(req: TrackedStatesRequest, seen: Set<number>): TrackedStatesRequest {
  const sink: StateSink = {
    found: (state, rfq, from) => {
      seen.add(rfq._id);
      req.sink.found(state, rfq, from);
    },
    unlabelled: (rfq, from) => {
      seen.add(rfq._id);
      req.sink.unlabelled(rfq, from);
    },
    invalid: (list, bad) => {
      if (bad.rfqId !== undefined) seen.add(bad.rfqId);
      req.sink.invalid(list, bad);
    },
  };
  return { ...req, sink };
}

function filteredStrategy(d: DialectFacts, form: FilterForm): StatesReading {
  const detail = d.detail === 'yes';
  const name = `filtered (${form})${detail ? ', detail calls where cheaper' : ''}`;
  const listOf = (state: RfqState) => ({ state, form });
  return {
    name,
    async read(port, given) {
      const f = noFigures(name);
      const seen = new Set<number>();
      const req = noting(given, seen);
      const open = await readList(port, req, f, 'open', listOf('open'));
      const closed = await readList(port, req, f, 'closed', listOf('closed'));
      const left = [...req.active].filter((id) => !seen.has(id));
      f.left = left.length;
      if (left.length === 0) return f;

      const order = idOrderOf([open.ids, closed.ids]);
      const pageSize = pageSizeOf([open.ids, closed.ids], d);
      const walk = walkEstimate(order, left.length, pageSize, d, f);
      const byDetail = detail && left.length <= walk;
      f.choice =
        `${left.length} tracked RFQs left the open and closed lists: ` +
        `${detail ? `${left.length} detail calls` : 'no detail call on this service'} against ${Number.isFinite(walk) ? `about ${walk}` : 'an unknown number of'} pages ` +
        `of the cancelled and completed lists (${order ? `${order} _id order proven: from the newest end` : '_id order not proven: in full until found'}): ` +
        (byDetail ? 'detail calls' : 'the lists');
      await settle(port, req, f, left, byDetail, (note, missing) =>
        walkFinalLists(port, note, f, missing, order, listOf),
      );
      // RFQs that moved while the open or closed list was read may have shifted one of ours past the pages read:
      // those lists are read once more before anything is reported missing
      if (f.missing.length > 0 && (open.moved || closed.moved))
        await settle(port, req, f, f.missing, false, async (note, missing) => {
          for (const state of ['open', 'closed'] as const)
            if (missing.size > 0) await readList(port, note, f, state, listOf(state), () => missing.size === 0);
        });
      return f;
    },
    find: (port, rfqId) =>
      findRfq(port, rfqId, detail, async () => {
        // latest states first: an RFQ moving while we look is found in its newer list
        for (const state of [...RFQ_STATUSES].reverse()) {
          const rfq = await findIn(port, listOf(state), rfqId);
          if (rfq) return { rfq, state };
        }
        return undefined;
      }),
  };
}

/** `ids` settled by their detail calls, or by `walk`; those found nowhere are the figures' `missing`. */
async function settle(
  port: ListingPort,
  req: TrackedStatesRequest,
  f: ListingFigures,
  ids: number[],
  byDetail: boolean,
  walk: (note: TrackedStatesRequest, missing: Set<number>) => Promise<void>,
): Promise<ListingFigures> {
  const missing = new Set(ids);
  const note = { ...req, sink: forgetting(req.sink, missing) };
  if (byDetail) await detailCalls(port, note, f, ids, missing);
  else await walk(note, missing);
  f.missing = [...missing];
  return f;
}

type Found = Awaited<ReturnType<ListingStrategy['find']>>;

/** One RFQ: by the detail call where there is one (a 404: not there), else (or for an unknown label) in the lists. */
async function findRfq(
  port: ListingPort,
  rfqId: number,
  detail: boolean,
  inLists: () => Promise<Found>,
): Promise<Found> {
  const byDetail = detail ? await findByDetail(port, rfqId) : undefined;
  if (byDetail === 'absent') return undefined;
  return byDetail ?? inLists();
}

/** The sink, also crossing found RFQs off `missing`. */
function forgetting(sink: StateSink, missing: Set<number>): StateSink {
  return {
    found: (state, rfq, from) => {
      missing.delete(rfq._id);
      sink.found(state, rfq, from);
    },
    unlabelled: (rfq, from) => {
      missing.delete(rfq._id);
      sink.unlabelled(rfq, from);
    },
    invalid: (list, bad) => {
      if (bad.rfqId !== undefined) missing.delete(bad.rfqId);
      sink.invalid(list, bad);
    },
  };
}

/**
 * The cancelled and completed lists, each from its newest end while the `_id` order holds (checked on every page),
 * until every RFQ of `missing` is found or proven in neither; in full where the order is not proven or broken.
 */
async function walkFinalLists(
  port: ListingPort,
  req: TrackedStatesRequest,
  f: ListingFigures,
  missing: Set<number>,
  order: IdOrder | undefined,
  listOf: (state: RfqState) => { state: RfqState; form: FilterForm },
): Promise<void> {
  for (const state of FINAL) {
    if (missing.size === 0) return;
    if (order) {
      const coverage = await walkFor(port, req, f, state, listOf(state), missing, order);
      if (!coverage.broken) continue;
      req.log.info(
        { event: 'poll.order-broken', list: state, reason: coverage.broken },
        `the ${state} list contradicts the _id order (${coverage.broken}): read in full`,
      );
    }
    await readList(port, req, f, state, listOf(state), () => missing.size === 0);
  }
}

function labelsStrategy(d: DialectFacts): StatesReading {
  const detail = d.detail === 'yes';
  const name = `unfiltered list with labels${detail ? ' or detail calls' : ''}`;
  return {
    name,
    async read(port, req) {
      const f = noFigures(name);
      const active = [...req.active];
      f.left = active.length;
      const pages =
        d.accountTotal !== undefined ? Math.max(1, Math.ceil(d.accountTotal / (d.pageSize ?? DEFAULT_PAGE_SIZE))) : NaN;
      const byDetail = detail && active.length > 0 && !(pages < active.length);
      f.choice =
        `${active.length} tracked RFQs can change: ` +
        `${detail ? `${active.length} detail calls` : 'no detail call on this service'} against ` +
        `${Number.isNaN(pages) ? 'an unknown number of' : `about ${pages}`} pages of the unfiltered list: ` +
        (byDetail ? 'detail calls' : 'the list');
      return settle(port, req, f, active, byDetail, async (note, missing) => {
        await readList(port, note, f, 'all', 'all', () => missing.size === 0);
      });
    },
    find: (port, rfqId) =>
      findRfq(port, rfqId, detail, async () => {
        const rfq = await findIn(port, 'all', rfqId);
        return rfq?.labelState ? { rfq, state: rfq.labelState } : undefined;
      }),
  };
}

/** Records per page: the first page of a list that took more than one, else the dialect's, else 20. */
function pageSizeOf(lists: number[][][], d: DialectFacts): number {
  for (const pages of lists) if (pages.length > 1 && pages[0]!.length > 0) return pages[0]!.length;
  return d.pageSize ?? DEFAULT_PAGE_SIZE;
}

/**
 * Pages a walk of the cancelled and completed lists is expected to cost: from the newest end, page 1 (and the last
 * page) of each plus the pages the RFQs that left may spread over; in full, every page of both (from the account's
 * total at detection, less what the open and closed lists hold).
 */
function walkEstimate(
  order: IdOrder | undefined,
  left: number,
  pageSize: number,
  d: DialectFacts,
  f: ListingFigures,
): number {
  if (order) return FINAL.length * ((order === 'ascending' ? 2 : 1) + Math.ceil(left / pageSize) - 1);
  // no account total (no unfiltered list): the history is unknown, so the walk may cost all of it
  if (d.accountTotal === undefined) return Infinity;
  const active = (['open', 'closed'] as ListName[]).reduce((n, l) => n + (f.lists[l]?.rfqs ?? 0), 0);
  return FINAL.length + Math.ceil(Math.max(0, d.accountTotal - active) / pageSize);
}

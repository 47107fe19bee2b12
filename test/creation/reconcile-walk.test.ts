/**
 * The walk and the dialect detection against a scripted port (no HTTP, no Redis): what each may conclude from a list
 * that changes, a filter that is ignored, a page that fails. Deterministic: every answer is written here.
 */
import { describe, expect, it } from 'vitest';
import { TransientHttpError } from '../../src/core/errors.ts';
import { seededRandom } from '../../src/sandbox/faults.ts';
import { walkAccount, RECONCILE_LIMITS } from '../../src/creation/reconcile-walk.ts';
import { detectDialect, type DialectSettings } from '../../src/sourcing/dialect.ts';
import type { RfqListPage, SourcingPort } from '../../src/sourcing/port.ts';
import { stateOfLabel } from '../../src/sourcing/status-labels.ts';
import { listingStrategyFor } from '../../src/sourcing/listing-strategy.ts';
import type { FilterForm, ListedRfq, ListFilter, RfqState } from '../../src/sourcing/types.ts';

const LIMITS = { ...RECONCILE_LIMITS, backoffMs: 1, maxBackoffMs: 2, passesPerList: 3 };
const LABEL: Record<RfqState, string> = {
  open: 'Active',
  closed: 'Closed',
  cancelled: 'Cancelled',
  completed: 'Completed',
};
const rfq = (id: number, state: RfqState = 'open'): ListedRfq => ({
  _id: id,
  status: LABEL[state],
  labelState: stateOfLabel(LABEL[state]),
  lines: [],
});

/** A port whose every answer comes from `answer(list, page, call)`: the page's RFQs and meta.total. */
function scripted(
  answer: (list: ListFilter, page: number, call: number) => { rfqs: ListedRfq[]; total: number; last: number } | Error,
): Pick<SourcingPort, 'listRfqPages' | 'getRfq'> & { calls: string[] } {
  const calls: string[] = [];
  let n = 0;
  return {
    calls,
    async *listRfqPages(list: ListFilter): AsyncGenerator<RfqListPage> {
      for (let page = 1; ; page++) {
        calls.push(
          `${list === 'all' ? 'all' : typeof list === 'string' ? list : `${list.form}:${list.state}`}#${page}`,
        );
        const a = answer(list, page, n++);
        if (a instanceof Error) throw a;
        yield { page, rfqs: a.rfqs, listSize: a.total };
        if (page >= a.last) return;
      }
    },
    async getRfq() {
      return undefined;
    },
  };
}
const pagesOf = (all: ListedRfq[], size: number, page: number) => ({
  rfqs: all.slice((page - 1) * size, page * size),
  total: all.length,
  last: Math.max(1, Math.ceil(all.length / size)),
});
const unfiltered = { unfiltered: 'yes' as const, filter: 'lower' as const };
// the lists the account's listing strategy walks, chosen from the dialect as the reconcile chooses them
const accountLists = (d: { unfiltered: 'yes' | 'no'; filter: FilterForm | 'none' }) =>
  listingStrategyFor({ ...d, detail: 'no' }).accountLists;

describe('walk of the unfiltered list', () => {
  it('a stable list is read twice, and complete when both reads agree: every RFQ reported', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    const seen = new Set<number>();
    const port = scripted((_l, p) => pagesOf(all, 10, p));
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, (r) => void seen.add(r._id));
    expect(out).toEqual({ complete: true, read: 25 });
    expect([...seen]).toEqual(all.map((r) => r._id));
    expect(port.calls).toEqual(['all#1', 'all#2', 'all#3', 'all#1', 'all#2', 'all#3']);
  });

  it('a list that fits in one answer is read once (one answer is a snapshot)', async () => {
    const all = Array.from({ length: 7 }, (_, i) => rfq(i + 1));
    const port = scripted((_l, p) => pagesOf(all, 10, p));
    expect(await walkAccount(port, accountLists(unfiltered), LIMITS, () => undefined)).toEqual({
      complete: true,
      read: 7,
    });
    expect(port.calls).toEqual(['all#1']);
  });

  it('a total that changes part-way ends that read at once and the list is read again', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    // the first read sees 26 on page 2 (one arrived, then left): the next two reads agree
    const port = scripted((_l, p, call) => (call === 1 ? { ...pagesOf(all, 10, p), total: 26 } : pagesOf(all, 10, p)));
    const seen: number[] = [];
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, (r) => void seen.push(r._id));
    expect(out).toEqual({ complete: true, read: 25 });
    expect(port.calls.slice(0, 3)).toEqual(['all#1', 'all#2', 'all#1']); // page 3 of the broken read never asked
  });

  it('a list that changes between every two reads is never trusted (churn), but what was read is reported', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    let grown = 0;
    const port = scripted((_l, p) => {
      if (p === 1) grown++;
      const now = [...Array.from({ length: grown }, (_, i) => rfq(1000 + i)), ...all];
      return pagesOf(now, 10, p);
    });
    const seen = new Set<number>();
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, (r) => void seen.add(r._id));
    expect(out).toMatchObject({ complete: false, churn: true });
    expect(out.reason).toMatch(/changed between two reads/);
    for (const r of all) expect(seen.has(r._id)).toBe(true);
  });

  it('an RFQ shifted out of its page (fewer distinct than the total) is incomplete, never absent', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    // page 2 repeats page 1's last RFQ: one RFQ is never seen although every total agrees
    const port = scripted((_l, p) =>
      p === 2 ? { ...pagesOf(all, 10, 2), rfqs: [all[9]!, ...all.slice(10, 19)] } : pagesOf(all, 10, p),
    );
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, () => undefined);
    expect(out).toMatchObject({ complete: false, read: 24 });
  });

  it('a page that keeps failing makes the walk incomplete (the caller waits), not an error', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    const port = scripted((_l, p) =>
      p === 3 ? new TransientHttpError({ operation: 'listRfqs', status: 502 }) : pagesOf(all, 10, p),
    );
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, () => undefined);
    expect(out.complete).toBe(false);
    expect(out.reason).toMatch(/kept failing/);
  });

  it('without an unfiltered list and without a proven filter nothing is ever complete', async () => {
    const port = scripted(() => ({ rfqs: [], total: 0, last: 1 }));
    const out = await walkAccount(port, accountLists({ unfiltered: 'no', filter: 'none' }), LIMITS, () => undefined);
    expect(out.complete).toBe(false);
    expect(port.calls).toEqual([]);
  });
});

describe('a moving list (sorted by anything, RFQs hidden, purged, arriving anywhere)', () => {
  it('one RFQ leaving and one arriving between two pages shift ours onto a page already read: never complete without it', async () => {
    // sorted by due date, pages of 10: ours (id 11) is 11th; after page 1 is read, RFQ 3 leaves (hidden, purged)
    // and RFQ 99 arrives at the end: the total stays 25 and ours moves to page 1, already read
    let list = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    let moved = false;
    const port = scripted((_l, p) => {
      if (p === 2 && !moved) {
        moved = true;
        list = [...list.filter((r) => r._id !== 3), rfq(99)];
      }
      return pagesOf(list, 10, p);
    });
    const seen = new Set<number>();
    const out = await walkAccount(port, accountLists(unfiltered), LIMITS, (r) => void seen.add(r._id));
    expect(out.complete && !seen.has(11)).toBe(false); // never "complete" with ours unread
    expect(out.complete).toBe(true); // the list was read again once it held still
    expect(seen.has(11)).toBe(true);
  });

  it('random arrivals and departures between pages: a walk that says complete read every RFQ listed throughout it', async () => {
    const random = seededRandom(2028);
    let complete = 0;
    let churned = 0;
    for (let trial = 0; trial < 300; trial++) {
      let next = 1000;
      const list = Array.from({ length: 5 + Math.floor(random() * 40) }, (_, i) => rfq(i + 1));
      const departed = new Set<number>();
      const initial = list.map((r) => r._id);
      const rate = random() * 0.6;
      const port = scripted((_l, p) => {
        // before some page reads: one RFQ arrives at a random place, and/or one leaves from a random place
        if (random() < rate) list.splice(Math.floor(random() * (list.length + 1)), 0, rfq(next++));
        if (random() < rate && list.length > 0) {
          const [gone] = list.splice(Math.floor(random() * list.length), 1);
          departed.add(gone!._id);
        }
        return pagesOf(list, 4, p);
      });
      const seen = new Set<number>();
      const out = await walkAccount(
        port,
        accountLists(unfiltered),
        { ...LIMITS, passesPerList: 6 },
        (r) => void seen.add(r._id),
      );
      if (!out.complete) {
        churned++;
        continue;
      }
      complete++;
      const throughout = initial.filter((id) => !departed.has(id));
      expect(throughout.filter((id) => !seen.has(id))).toEqual([]);
    }
    // both outcomes occur, so the property was really exercised
    expect(complete).toBeGreaterThan(50);
    expect(churned).toBeGreaterThan(10);
  });
});

describe('walk of the four proven lists (no unfiltered list)', () => {
  it('an RFQ that moves from open to closed during the walk (read in two lists) makes it incomplete', async () => {
    let moved = false;
    const port = scripted((list, p) => {
      const state = typeof list === 'object' ? list.state : 'open';
      if (state === 'closed') moved = true;
      const open = moved ? [rfq(1), rfq(2)] : [rfq(1), rfq(2), rfq(3)];
      const closed = [rfq(3, 'closed')];
      return pagesOf(state === 'open' ? open : state === 'closed' ? closed : [], 10, p);
    });
    const out = await walkAccount(
      port,
      accountLists({ unfiltered: 'no', filter: 'capitalised' }),
      LIMITS,
      () => undefined,
    );
    expect(out.complete).toBe(false);
    expect(out.reason).toMatch(/two lists/);
  });

  it('stable lists are complete', async () => {
    const port = scripted((list, p) => {
      const state = typeof list === 'object' ? list.state : 'open';
      return pagesOf(state === 'open' ? [rfq(1), rfq(2)] : state === 'completed' ? [rfq(3, 'completed')] : [], 10, p);
    });
    expect(
      await walkAccount(port, accountLists({ unfiltered: 'no', filter: 'lower' }), LIMITS, () => undefined),
    ).toEqual({
      complete: true,
      read: 3,
    });
  });
});

describe('dialect detection', () => {
  const AUTO: DialectSettings = {
    SOURCING_STATUS_FILTER: 'auto',
    SOURCING_EXTERNAL_ID_ECHO: 'auto',
    SOURCING_DETAIL_CALL: 'auto',
    SOURCING_EDIT_CALL: 'auto',
  };
  const account: ListedRfq[] = [rfq(1), rfq(2), rfq(3, 'closed'), rfq(4, 'cancelled'), rfq(5, 'completed'), rfq(6)];
  const byState = (s: RfqState) => account.filter((r) => r.labelState === s);

  it('an ignored lower-case filter (the whole account each time) is not proven; the capitalised one is', async () => {
    const port = scripted((list, p) => {
      if (list === 'all' || typeof list === 'string' || list.form === 'lower') return pagesOf(account, 10, p);
      return pagesOf(byState(list.state), 10, p);
    });
    const d = await detectDialect(port, AUTO);
    expect(d.filter).toBe('capitalised');
    expect(d.filterBasis).toBe('detected');
    expect(d.evidence.join('\n')).toMatch(/form lower: .* = 24, not the unfiltered 6/);
  });

  it('a filter that answers empty lists is not proven; with no form proven the poll reads labels (none)', async () => {
    const port = scripted((list, p) => (list === 'all' ? pagesOf(account, 10, p) : pagesOf([], 10, p)));
    const d = await detectDialect(port, AUTO);
    expect(d).toMatchObject({ filter: 'none', filterBasis: 'unproven', unfiltered: 'yes' });
  });

  it('totals that add up but a record of another state in a filtered list: not proven', async () => {
    const port = scripted((list, p) => {
      if (list === 'all') return pagesOf(account, 10, p);
      const s = typeof list === 'string' ? list : list.state;
      // open and closed swapped: the sums still match
      const swap: Record<RfqState, RfqState> = {
        open: 'closed',
        closed: 'open',
        cancelled: 'cancelled',
        completed: 'completed',
      };
      return pagesOf(byState(swap[s]), 10, p);
    });
    const d = await detectDialect(port, AUTO);
    expect(d.filterBasis).toBe('unproven');
    expect(d.evidence.join('\n')).toMatch(/labelled "Closed" in status=open/);
  });

  it('RFQs created during the proof (the unfiltered total grows): proven between the totals before and after', async () => {
    // every list call creates one more open RFQ after answering, as our own workers do while one of them detects
    const grown = [...account];
    const port = scripted((list, p) => {
      const now =
        list === 'all'
          ? pagesOf(grown, 10, p)
          : typeof list === 'object' && list.form === 'capitalised'
            ? pagesOf(
                grown.filter((r) => r.labelState === list.state),
                10,
                p,
              )
            : pagesOf(grown, 10, p);
      grown.push(rfq(grown.length + 1));
      return now;
    });
    const d = await detectDialect(port, AUTO);
    expect(d).toMatchObject({ filter: 'capitalised', filterBasis: 'detected' });
    expect(d.evidence.join('\n')).toMatch(/form capitalised: .*between the unfiltered \d+ before and \d+ after/);
    // the ignored lower-case filter is not proven for all the growth
    expect(d.evidence.join('\n')).toMatch(/form lower: (.*kept changing|.*not applied)/);
  });

  it('an empty account proves nothing; a setting forces the form', async () => {
    const empty = scripted((_l, p) => pagesOf([], 10, p));
    expect((await detectDialect(empty, AUTO)).filterBasis).toBe('unproven');
    const forced = await detectDialect(empty, { ...AUTO, SOURCING_STATUS_FILTER: 'capitalised' });
    expect(forced).toMatchObject({ filter: 'capitalised', filterBasis: 'setting' });
  });
});

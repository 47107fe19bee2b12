/**
 * The walk and the dialect detection against a scripted port (no HTTP, no Redis): what each may conclude from a list
 * that changes, a filter that is ignored, a page that fails. Deterministic: every answer is written here.
 */
import { describe, expect, it } from 'vitest';
import { TransientHttpError } from '../../src/errors.ts';
import { walkAccount } from '../../src/creation/reconcile-walk.ts';
import { RECONCILE_LIMITS } from '../../src/creation/rfq-creator.ts';
import { detectDialect, type DialectSettings } from '../../src/sourcing/dialect.ts';
import type { RfqListPage, SourcingPort } from '../../src/sourcing/port.ts';
import { stateOfLabel } from '../../src/sourcing/status-labels.ts';
import type { ListedRfq, ListFilter, RfqState } from '../../src/sourcing/types.ts';

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
        calls.push(`${list === null ? 'all' : typeof list === 'string' ? list : `${list.form}:${list.state}`}#${page}`);
        const a = answer(list, page, n++);
        if (a instanceof Error) throw a;
        yield { page, rfqs: a.rfqs, total: a.total, pageTotal: a.total };
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

describe('walk of the unfiltered list', () => {
  it('a stable list read whole is complete: every RFQ reported once', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    const seen: number[] = [];
    const out = await walkAccount(
      scripted((_l, p) => pagesOf(all, 10, p)),
      unfiltered,
      LIMITS,
      (r) => void seen.push(r._id),
    );
    expect(out).toEqual({ complete: true, read: 25 });
    expect(seen).toEqual(all.map((r) => r._id));
  });

  it('a total that changes part-way ends the walk at once, incomplete (churn), but what was read is reported', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    const port = scripted((_l, p) => (p === 2 ? { ...pagesOf(all, 10, p), total: 26 } : pagesOf(all, 10, p)));
    const seen: number[] = [];
    const out = await walkAccount(port, unfiltered, LIMITS, (r) => void seen.push(r._id));
    expect(out.complete).toBe(false);
    expect(out.churn).toBe(true);
    expect(port.calls).toEqual(['all#1', 'all#2']); // page 3 never asked
    expect(seen).toHaveLength(20);
  });

  it('an RFQ shifted out of its page (fewer distinct than the total) is incomplete, never absent', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    // page 2 repeats page 1's last RFQ: one RFQ is never seen although every total agrees
    const port = scripted((_l, p) =>
      p === 2 ? { ...pagesOf(all, 10, 2), rfqs: [all[9]!, ...all.slice(10, 19)] } : pagesOf(all, 10, p),
    );
    const out = await walkAccount(port, unfiltered, LIMITS, () => undefined);
    expect(out).toMatchObject({ complete: false, read: 24 });
  });

  it('a page that keeps failing makes the walk incomplete (the caller waits), not an error', async () => {
    const all = Array.from({ length: 25 }, (_, i) => rfq(i + 1));
    const port = scripted((_l, p) =>
      p === 3 ? new TransientHttpError({ operation: 'listRfqs', status: 502 }) : pagesOf(all, 10, p),
    );
    const out = await walkAccount(port, unfiltered, LIMITS, () => undefined);
    expect(out.complete).toBe(false);
    expect(out.reason).toMatch(/kept failing/);
  });

  it('without an unfiltered list and without a proven filter nothing is ever complete', async () => {
    const port = scripted(() => ({ rfqs: [], total: 0, last: 1 }));
    const out = await walkAccount(port, { unfiltered: 'no', filter: 'none' }, LIMITS, () => undefined);
    expect(out.complete).toBe(false);
    expect(port.calls).toEqual([]);
  });
});

describe('walk of the four proven lists (no unfiltered list)', () => {
  it('an RFQ that moves from open to closed during the walk (read in two lists) makes it incomplete', async () => {
    let moved = false;
    const port = scripted((list, p) => {
      const state = typeof list === 'object' && list !== null ? list.state : 'open';
      if (state === 'closed') moved = true;
      const open = moved ? [rfq(1), rfq(2)] : [rfq(1), rfq(2), rfq(3)];
      const closed = [rfq(3, 'closed')];
      return pagesOf(state === 'open' ? open : state === 'closed' ? closed : [], 10, p);
    });
    const out = await walkAccount(port, { unfiltered: 'no', filter: 'capitalised' }, LIMITS, () => undefined);
    expect(out.complete).toBe(false);
    expect(out.reason).toMatch(/two lists/);
  });

  it('stable lists are complete', async () => {
    const port = scripted((list, p) => {
      const state = typeof list === 'object' && list !== null ? list.state : 'open';
      return pagesOf(state === 'open' ? [rfq(1), rfq(2)] : state === 'completed' ? [rfq(3, 'completed')] : [], 10, p);
    });
    expect(await walkAccount(port, { unfiltered: 'no', filter: 'lower' }, LIMITS, () => undefined)).toEqual({
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
      if (list === null || typeof list === 'string' || list.form === 'lower') return pagesOf(account, 10, p);
      return pagesOf(byState(list.state), 10, p);
    });
    const d = await detectDialect(port, AUTO);
    expect(d.filter).toBe('capitalised');
    expect(d.filterBasis).toBe('detected');
    expect(d.evidence.join('\n')).toMatch(/form lower: .* = 24, not the unfiltered 6/);
  });

  it('a filter that answers empty lists is not proven; with no form proven the poll reads labels (none)', async () => {
    const port = scripted((list, p) => (list === null ? pagesOf(account, 10, p) : pagesOf([], 10, p)));
    const d = await detectDialect(port, AUTO);
    expect(d).toMatchObject({ filter: 'none', filterBasis: 'unproven', unfiltered: 'yes' });
  });

  it('totals that add up but a record of another state in a filtered list: not proven', async () => {
    const port = scripted((list, p) => {
      if (list === null) return pagesOf(account, 10, p);
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
        list === null
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

/**
 * The listing strategies against the sandbox over HTTP (no Redis: the strategy alone), chosen from the dialect with
 * no caller branching: where no filter form is proven, the detail calls of the tracked RFQs when they are fewer
 * than the unfiltered list's pages, else that list until every one was seen; where the lists are not in `_id`
 * order, the final lists in full until found. Each RFQ's state is what a list or the detail call showed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { listingStrategyFor } from '../../src/sourcing/listing-strategy.ts';
import { type ListingPort, type StateSink } from '../../src/sourcing/listing-types.ts';
import type { SourcingPort } from '../../src/sourcing/port.ts';

const PAGE = 20;
const HISTORY = 2_000;

function requests(sb: Sandbox): { list: number; detail: number } {
  const c = sb.stats().calls;
  const sum = (op: string) => Object.values(c[op] ?? {}).reduce((a, b) => a + b, 0);
  return { list: sum('listRfqs'), detail: sum('getRfq') };
}

function collecting(): { sink: StateSink; states: Map<number, string> } {
  const states = new Map<number, string>();
  return {
    states,
    sink: {
      found: (state, rfq) => void states.set(rfq._id, state),
      unlabelled: (rfq) => void states.set(rfq._id, '?'),
      invalid: () => undefined,
    },
  };
}

async function account(
  dialect: 'friendly' | 'docs',
  listOrder?: 'due',
): Promise<{ sb: Sandbox; client: SourcingPort; ids: number[] }> {
  const sb = await startSandbox({
    dialect,
    pageSize: PAGE,
    seed: 1,
    history: { rfqs: HISTORY, finalShare: 0.97 },
    ...(listOrder ? { behaviour: { listOrder } } : {}),
  });
  const client = createSourcingClient({ baseUrl: sb.url, getToken: () => 'sandbox-token', logger: silentLogger });
  const ids: number[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(
      (
        await client.createRfq({
          title: `Tracked ${i}`,
          // by due date, the tracked RFQs fall among the history, not at one end
          due_date: String(Date.now() - (HISTORY / 2 - i * 100) * 3_600_000),
          rfq_type: 'Public',
          lines: [{ product_name: 'x', qty: 1, external_id: `t-${i}` }],
        })
      )._id,
    );
  sb.control.advance(ids[0]!, 'closed');
  sb.control.advance(ids[1]!, 'completed');
  sb.control.advance(ids[2]!, 'cancelled');
  sb.resetStats();
  return { sb, client, ids };
}

/** The strategy of `facts` run on `ids` from a fresh count: its figures and the states it told of the tracked ones. */
async function readWith(
  facts: Parameters<typeof listingStrategyFor>[0],
  a: { sb: Sandbox; client: SourcingPort; ids: number[] },
) {
  a.sb.resetStats();
  const { sink, states } = collecting();
  const f = await listingStrategyFor(facts).read(a.client, { active: new Set(a.ids), sink, log: silentLogger });
  return { f, states: new Map([...states].filter(([id]) => a.ids.includes(id))) };
}

const expected = (ids: number[]) =>
  new Map([
    [ids[0]!, 'closed'],
    [ids[1]!, 'completed'],
    [ids[2]!, 'cancelled'],
    [ids[3]!, 'open'],
    [ids[4]!, 'open'],
  ]);

describe('listing strategies chosen from the dialect', () => {
  const started: Array<{ sb: Sandbox; client: SourcingPort }> = [];
  let docs: Awaited<ReturnType<typeof account>>;
  let friendlyByDue: Awaited<ReturnType<typeof account>>;
  beforeAll(async () => {
    docs = await account('docs');
    friendlyByDue = await account('friendly', 'due');
    started.push(docs, friendlyByDue);
  });
  afterAll(async () => {
    for (const s of started) {
      await s.client.close();
      await s.sb.stop();
    }
  });

  it('no proven filter, a detail call: one detail call per tracked RFQ, fewer than the pages of the list', async () => {
    const { sb, ids } = docs;
    const { f, states } = await readWith(
      { filter: 'none', detail: 'yes', accountTotal: HISTORY + 5, pageSize: PAGE },
      docs,
    );
    expect(requests(sb)).toEqual({ list: 0, detail: 5 });
    expect(states).toEqual(expected(ids));
    expect(f.choice).toMatch(/5 detail calls against about 101 pages of the unfiltered list: detail calls$/);
  });

  it('no proven filter, no detail call: the unfiltered list until every tracked RFQ was seen, states from labels', async () => {
    const { sb, ids } = docs;
    const { f, states } = await readWith({ filter: 'none', detail: 'no' }, docs);
    // the tracked RFQs are the newest: every page of the account, in _id order
    expect(requests(sb)).toEqual({ list: Math.ceil((HISTORY + 5) / PAGE), detail: 0 });
    expect(states).toEqual(expected(ids));
    expect(f.missing).toEqual([]);
  });

  it('lists by due date (no _id order): the final lists in full until found; exact', async () => {
    const { sb, ids } = friendlyByDue;
    const { f, states } = await readWith({ filter: 'lower', detail: 'no' }, friendlyByDue);
    expect(states).toEqual(expected(ids));
    expect(f.choice).toMatch(/_id order not proven: in full until found\): the lists$/);
    const pages = (state: string) =>
      Math.max(1, Math.ceil(sb.control.listAll().filter((r) => r.state === state).length / PAGE));
    // open and closed in full, cancelled in full (one of ours is there), completed until ours was found
    expect(requests(sb).list).toBeGreaterThan(pages('open') + pages('closed') + pages('cancelled'));
    expect(requests(sb).list).toBeLessThanOrEqual(
      pages('open') + pages('closed') + pages('cancelled') + pages('completed'),
    );
    expect(f.missing).toEqual([]);
  });

  it('a tracked RFQ in no list: reported missing, never given a state', async () => {
    const { sb, ids } = docs;
    sb.control.hide(ids[4]!);
    const { f, states } = await readWith({ filter: 'capitalised', detail: 'no' }, docs);
    sb.control.hide(ids[4]!, false);
    expect(f.missing).toEqual([ids[4]]);
    expect(states.has(ids[4]!)).toBe(false);
    expect(states.get(ids[1]!)).toBe('completed');
  });

  it('an RFQ shifted past the pages read while others left its list: read again, not called missing', async () => {
    // the closed list in pages of 2: RFQs 1 and 2 complete between its page 1 and page 2, so offset page 2 starts
    // at RFQ 5 and ours (3) is never on a page read; meta.total says the list moved
    const rfq = (_id: number) => ({ _id, lines: [] });
    let closedReads = 0;
    const script: Record<string, () => Array<{ ids: number[]; total: number }>> = {
      open: () => [{ ids: [], total: 0 }],
      closed: () =>
        ++closedReads === 1
          ? [
              { ids: [1, 2], total: 5 },
              { ids: [5], total: 3 },
            ]
          : [
              { ids: [3, 4], total: 3 },
              { ids: [5], total: 3 },
            ],
      cancelled: () => [{ ids: [], total: 0 }],
      completed: () => [{ ids: [1, 2], total: 2 }],
    };
    let requests = 0;
    const port: ListingPort = {
      async *listRfqPages(list) {
        const pages = script[(list as { state: string }).state]!();
        for (const [i, p] of pages.entries()) {
          requests++;
          yield { page: i + 1, rfqs: p.ids.map(rfq), listSize: p.total };
        }
      },
      getRfq: () => Promise.resolve(undefined),
    };
    const { sink, states } = collecting();
    const f = await listingStrategyFor({ filter: 'lower', detail: 'no' }).read(port, {
      active: new Set([3]),
      sink,
      log: silentLogger,
    });
    expect(states.get(3)).toBe('closed');
    expect(f.missing).toEqual([]);
    expect(closedReads).toBe(2);
    expect(f.requests).toBe(requests);
  });
});

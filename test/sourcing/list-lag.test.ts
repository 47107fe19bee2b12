/**
 * The list-lag probe (src/sourcing/list-lag.ts) against a scripted port on a scripted clock (no HTTP, no Redis): the
 * new RFQ shows 700 ms after its create was answered, on page 1 (newest first), on the last page (oldest first), in
 * the middle of a short list (by due date), or never.
 */
import { describe, expect, it } from 'vitest';
import { measureListLag } from '../../src/sourcing/list-lag.ts';
import type { ListRfqsOptions, RfqListPage, SourcingPort } from '../../src/sourcing/port.ts';
import type { ListedRfq } from '../../src/sourcing/types.ts';

const NEW = 500;
const rfq = (id: number): ListedRfq => ({ _id: id, lines: [] });

/** A list of 60 RFQs in pages of 10, the new one shown from `showsAt` (ms) at `where`. */
function port(where: 'first' | 'last' | 'middle', showsAt: number, clock: { t: number }, pages = 6) {
  const calls: string[] = [];
  const p: Pick<SourcingPort, 'listRfqPages'> = {
    async *listRfqPages(_list, opts: ListRfqsOptions = {}): AsyncGenerator<RfqListPage> {
      const others = Array.from({ length: pages * 10 }, (_, i) => rfq(i + 1));
      const all =
        clock.t < showsAt
          ? others
          : where === 'first'
            ? [rfq(NEW), ...others]
            : where === 'last'
              ? [...others, rfq(NEW)]
              : [...others.slice(0, others.length / 2), rfq(NEW), ...others.slice(others.length / 2)];
      const last = Math.ceil(all.length / 10);
      const want = opts.pages === 'edges' ? [...new Set([1, last])] : Array.from({ length: last }, (_, i) => i + 1);
      for (const page of want) {
        calls.push(`${opts.pages ?? 'all'}#${page}`);
        yield { page, rfqs: all.slice((page - 1) * 10, page * 10), listSize: all.length };
      }
    },
  };
  return { p, calls };
}

const fakeTime = (clock: { t: number }) => ({
  now: () => clock.t,
  sleep: async (ms: number) => void (clock.t += ms),
});

describe('the list-lag probe', () => {
  it.each(['first', 'last', 'middle'] as const)(
    'the new RFQ shows on the %s page after 700 ms: measured as at least that, within one probe step',
    async (where) => {
      const clock = { t: 0 };
      const { p } = port(where, 700, clock);
      const m = await measureListLag(p, 'all', NEW, 0, { maxMs: 60_000, wholeListPages: 20, ...fakeTime(clock) });
      expect(m.lagMs).toBeGreaterThanOrEqual(700);
      expect(m.lagMs).toBeLessThan(700 + 400);
      expect(m.evidence).toMatch(new RegExp(`our RFQ ${NEW} was listed ${m.lagMs} ms after its create was answered`));
    },
  );

  it('ours created after it pushed it off the last page: one of them listed tells it is listed', async () => {
    const clock = { t: 0 };
    const newer = Array.from({ length: 15 }, (_, i) => NEW + 1 + i);
    const others = Array.from({ length: 400 }, (_, i) => rfq(i + 1));
    const p: Pick<SourcingPort, 'listRfqPages'> = {
      async *listRfqPages(_list, opts: ListRfqsOptions = {}): AsyncGenerator<RfqListPage> {
        const all = clock.t < 700 ? others : [...others, rfq(NEW), ...newer.map(rfq)];
        const last = Math.ceil(all.length / 10);
        const want = opts.pages === 'edges' ? [1, last] : Array.from({ length: last }, (_, i) => i + 1);
        for (const page of want) yield { page, rfqs: all.slice((page - 1) * 10, page * 10), listSize: all.length };
      },
    };
    const o = { maxMs: 5_000, wholeListPages: 20, ...fakeTime(clock) };
    expect((await measureListLag(p, 'all', NEW, 0, o)).lagMs).toBeUndefined();
    clock.t = 0;
    const m = await measureListLag(p, 'all', NEW, 0, { ...o, later: async () => new Set(newer) });
    expect(m.lagMs).toBeGreaterThanOrEqual(700);
    expect(m.lagMs).toBeLessThan(1_100);
  });

  it('a long list sorted so the new RFQ is neither first nor last is not measured (the settle time stays conservative)', async () => {
    const clock = { t: 0 };
    const { p, calls } = port('middle', 700, clock, 40);
    const m = await measureListLag(p, 'all', NEW, 0, { maxMs: 5_000, wholeListPages: 20, ...fakeTime(clock) });
    expect(m.lagMs).toBeUndefined();
    expect(m.evidence).toMatch(/not measured/);
    expect(calls.filter((c) => c.startsWith('all#'))).toEqual([]); // a long list is never read whole for it
  });
});

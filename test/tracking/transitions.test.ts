import { describe, expect, it } from 'vitest';
import { decideNewVersion, revisionsOf } from '../../src/awarding/revisions.ts';
import { mergeSeenState, observe } from '../../src/tracking/transitions.ts';
import { newTrackedRfq, type TrackedRfq } from '../../src/rfqs/record.ts';

const T0 = Date.UTC(2026, 10, 22, 2, 0, 0);

function seen(rec: TrackedRfq, state: Parameters<typeof observe>[1], at = T0) {
  return observe(rec, state, at, 3);
}

describe('observe: what one poll means for a tracked RFQ', () => {
  it('records created -> open -> closed -> completed with times, asking for quotations then the award', () => {
    let r = newTrackedRfq(7, T0 - 1000);
    const a = seen(r, 'open', T0);
    expect(a.transition).toEqual({ from: 'created', to: 'open', at: T0 });
    expect(a.actions).toEqual([]);
    r = a.record;
    const quiet = seen(r, 'open', T0 + 1);
    expect(quiet.changed).toBe(false);
    const b = seen(r, 'closed', T0 + 2);
    expect(b.actions).toEqual(['pull-quotations']);
    r = b.record;
    expect(seen(r, 'closed', T0 + 3).actions).toEqual(['check-revisions']);
    const c = seen(r, 'completed', T0 + 4);
    expect(c.actions).toEqual(['pull-award']);
    expect(c.record.transitions.map((t) => `${t.from}>${t.to}@${t.at - T0}`)).toEqual([
      'created>open@0',
      'open>closed@2',
      'closed>completed@4',
    ]);
  });

  it('asks again for an award that was never written, and stops once it is', () => {
    const r = { ...newTrackedRfq(7, T0), state: 'completed' as const, lastSeenAt: T0 };
    expect(seen(r, 'completed').actions).toEqual(['pull-award']);
    const done = {
      ...r,
      comparison: { version: 2, writtenAt: T0, revisions: {}, award: true, workbook: 'a', awardCsv: 'b' },
    };
    expect(seen(done, 'completed').actions).toEqual([]);
  });

  it('reports cancelled', () => {
    const r = { ...newTrackedRfq(7, T0), state: 'open' as const, lastSeenAt: T0 };
    const o = seen(r, 'cancelled');
    expect(o.actions).toEqual(['report-cancelled']);
    expect(o.record.state).toBe('cancelled');
  });

  it('flags an RFQ missing from every list after N polls, keeps it, and unflags it when it reappears', () => {
    let r: TrackedRfq = { ...newTrackedRfq(7, T0), state: 'open', lastSeenAt: T0 };
    r = seen(r, undefined, T0 + 1).record;
    const second = seen(r, undefined, T0 + 2);
    expect(second.flag).toBeUndefined();
    const third = seen(second.record, undefined, T0 + 3);
    expect(third.flag).toBe('flagged');
    expect(third.record.flaggedAt).toBe(T0 + 3);
    expect(third.record.state).toBe('open');
    const fourth = seen(third.record, undefined, T0 + 4);
    expect(fourth.flag).toBeUndefined();
    expect(fourth.record.flaggedAt).toBe(T0 + 3);
    const back = seen(fourth.record, 'open', T0 + 5);
    expect(back.flag).toBe('reappeared');
    expect(back.record.flaggedAt).toBeUndefined();
    expect(back.record.missingPolls).toBe(0);
  });

  it('takes the most advanced state when an RFQ shows in two lists of one poll', () => {
    expect(mergeSeenState('open', 'closed')).toBe('closed');
    expect(mergeSeenState('completed', 'closed')).toBe('completed');
    expect(mergeSeenState(undefined, 'open')).toBe('open');
  });
});

describe('decideNewVersion: when the workbook needs a new version', () => {
  const written = { revisions: { '11': 1, comp_2: 0 }, award: false };
  it('writes the first version', () => {
    expect(decideNewVersion(undefined, { revisions: {}, award: false }).reasons).toEqual(['first']);
  });
  it('does nothing when revisions are unchanged', () => {
    expect(decideNewVersion(written, { revisions: { '11': 1, comp_2: 0 }, award: false }).needed).toBe(false);
  });
  it('writes a new version when a revision rises, naming the quotation', () => {
    const d = decideNewVersion(written, { revisions: { '11': 2, comp_2: 0 }, award: false });
    expect(d).toEqual({ needed: true, reasons: ['revision'], revised: ['11'] });
  });
  it('writes the award once, and again only if the winner changes', () => {
    expect(decideNewVersion(written, { revisions: written.revisions, award: true, winnerKey: '11' }).reasons).toEqual([
      'award',
    ]);
    const awarded = { ...written, award: true, winnerKey: '11' };
    expect(decideNewVersion(awarded, { revisions: written.revisions, award: true, winnerKey: '11' }).needed).toBe(
      false,
    );
    expect(
      decideNewVersion(awarded, { revisions: written.revisions, award: true, winnerKey: 'comp_2' }).reasons,
    ).toEqual(['winner-changed']);
  });
  it('treats a missing revision_no as 0 and keeps the highest per key', () => {
    expect(
      revisionsOf([
        { quotation_key: 'a' },
        { quotation_key: 'b', revision_no: 3 },
        { quotation_key: 'b', revision_no: 1 },
      ]),
    ).toEqual({ a: 0, b: 3 });
  });
});

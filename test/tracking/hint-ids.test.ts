/** The ids a webhook's JSON body may name: every integer at any depth, those under an id-like field first. */
import { describe, expect, it } from 'vitest';
import { hintIds } from '../../src/tracking/poll/hint-check.ts';

describe('hintIds', () => {
  it('finds ids in any field at any depth, as numbers or digit strings, id-like fields first, each once', () => {
    const body = {
      event: 'rfq.status_changed',
      count: 3,
      data: { rfq: { _id: '1042', rfq_no: 17 }, items: [{ id: 7 }, { rfqId: 1042 }] },
      changed_at: '2026-11-27T10:00:00Z',
    };
    expect(hintIds(body)).toEqual([1042, 7, 3, 17]);
  });

  it('ignores what cannot be an RFQ id: fractions, negatives, zero, long or mixed strings, booleans', () => {
    expect(hintIds({ a: 1.5, b: -3, c: 0, d: '12345678901234567', e: '12a', f: true, g: null })).toEqual([]);
    expect(hintIds('not an object')).toEqual([]);
    expect(hintIds([5, [6, [7]]])).toEqual([5, 6, 7]);
  });

  it('reads at most 50 ids from a body however many it holds', () => {
    expect(hintIds({ ids: Array.from({ length: 500 }, (_, i) => i + 1) })).toHaveLength(50);
  });
});

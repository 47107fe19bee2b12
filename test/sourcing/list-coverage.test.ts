/**
 * What the pages of a list read so far prove about an RFQ not found in them (list-coverage.ts): pure, table tests.
 * A list in `_id` order read from one end proves an RFQ beyond the pages read absent, never one between them; any
 * page that contradicts the order or a changing total proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { idOrderOf, ListCoverage } from '../../src/sourcing/list-coverage.ts';

/** Pages of `size` over `ids` (a list as the service would page it). */
const paged = (ids: number[], size: number): number[][] =>
  Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('ListCoverage', () => {
  it('ascending, read backward: the last page alone proves nothing below its first _id', () => {
    // 41 RFQs in pages of 20: the last page holds one RFQ, the one before it the two we look for
    const pages = paged(range(1, 41), 20);
    const c = new ListCoverage('ascending');
    expect(c.add(1, pages[0]!, 3, 41)).toBe(true);
    expect(c.add(3, pages[2]!, 3, 41)).toBe(true);
    expect(c.complete).toBe(false);
    expect([39, 40].map((id) => c.absent(id))).toEqual([false, false]);
    expect(c.absent(42)).toBe(true); // beyond the newest end: in no page
    expect(c.absent(0)).toBe(true); // before page 1
    expect(c.add(2, pages[1]!, 3, 41)).toBe(true);
    expect(c.complete).toBe(true);
    expect(c.absent(39)).toBe(true);
  });

  it('ascending, read forward (no last page known): covered up to the last _id read, complete at the end', () => {
    const c = new ListCoverage('ascending');
    c.add(1, [1, 2, 3], undefined, 7);
    c.add(2, [4, 5, 6], undefined, 7);
    expect([5, 7].map((id) => c.absent(id))).toEqual([true, false]);
    c.add(3, [7], 3, 7);
    expect(c.complete).toBe(true);
  });

  it('descending, read forward: the newest first; covered down to the last _id read', () => {
    const c = new ListCoverage('descending');
    c.add(1, [90, 80, 70], 5, 15);
    expect([95, 75, 69].map((id) => c.absent(id))).toEqual([true, true, false]);
  });

  it.each([
    ['a page out of order', (c: ListCoverage) => c.add(3, [45, 41, 50], 3, 41)],
    ['a page that goes back', (c: ListCoverage) => c.add(3, [5, 6], 3, 41)],
    ['meta.total changed while read', (c: ListCoverage) => c.add(3, [41], 3, 42)],
    ['a record without a readable _id', (c: ListCoverage) => c.add(3, [40, undefined], 3, 41)],
    ['a page out of sequence', (c: ListCoverage) => c.add(7, [30, 31], 3, 41)],
  ])('%s breaks the coverage: nothing is proven absent', (_what, step) => {
    const c = new ListCoverage('ascending');
    c.add(1, range(1, 20), 3, 41);
    c.add(3, [41], 3, 41);
    expect(step(c)).toBe(false);
    expect(c.broken).toBeDefined();
    expect(c.absent(1_000)).toBe(false);
  });

  it('an empty list is complete on its first page', () => {
    const c = new ListCoverage('ascending');
    c.add(1, [], 1, 0);
    expect(c.complete && c.absent(5)).toBe(true);
  });
});

describe('idOrderOf', () => {
  it.each([
    [
      'ascending over two page boundaries',
      [
        [
          [1, 2],
          [3, 4],
        ],
        [[5], [7]],
      ],
      'ascending',
    ],
    ['descending', [[[9, 8], [7, 6], [5]]], 'descending'],
    ['one page boundary is not evidence', [[[1, 2], [3]], [[5, 6]]], undefined],
    [
      'each list in order on its own',
      [
        [
          [1, 2],
          [3, 4],
        ],
        [[2], [7]],
      ],
      'ascending',
    ],
    ['by another field', [[[3, 1], [2, 5], [4]]], undefined],
  ] as const)('%s', (_name, lists, expected) => {
    expect(idOrderOf(lists as unknown as number[][][])).toBe(expected);
  });
});

/** The file-wide external_id index: a second claim of an id names the requisition that claimed it first. */
import { describe, expect, it } from 'vitest';
import { ExternalIdIndex } from '../../src/ingest/external-id-index.ts';

describe('ExternalIdIndex', () => {
  it('remembers the first owner of each of 200,000 ids through growth, and stays compact', () => {
    const idx = new ExternalIdIndex(16);
    for (let i = 0; i < 200_000; i++) expect(idx.claim(`EBS-${i}-${i % 7}`, i >> 3)).toBe(i >> 3);
    let wrong = 0;
    for (let i = 0; i < 200_000; i++) if (idx.claim(`EBS-${i}-${i % 7}`, -1) !== i >> 3) wrong++;
    expect(wrong).toBe(0);
    expect(idx.size).toBe(200_000);
    expect(idx.bytes).toBeLessThanOrEqual(200_000 * 4 * 12); // <= 48 bytes per id even right after doubling
  });

  it('tells apart ids that differ only by case, order or length', () => {
    const idx = new ExternalIdIndex();
    const ids = ['A-1', 'a-1', '1-A', 'A-10', 'A-1 ', '', 'A--1'];
    ids.forEach((id, i) => expect(idx.claim(id, i)).toBe(i));
  });

  it('record says whether an id is new (undefined) or who recorded it first, even that same owner', () => {
    const idx = new ExternalIdIndex(16);
    expect(idx.record('R1-1', 0)).toBeUndefined();
    expect(idx.record('R1-1', 0)).toBe(0);
    expect(idx.record('R1-1', 3)).toBe(0);
    expect(idx.record('R2-1', 1)).toBeUndefined();
    expect(idx.claim('R2-1', 5)).toBe(1);
    expect(idx.size).toBe(2);
  });
});

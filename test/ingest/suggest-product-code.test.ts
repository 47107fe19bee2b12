/**
 * `check --suggest` drafts `product_code` (the price history's key: the last price paid) from the column holding the
 * ERP's item number, and ingesting with the drafted profile carries it on every line.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ingestWith, suggestAndLoad } from './suggest-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('check --suggest drafts product_code', () => {
  it.each([
    ['Sage100_Bedarfsanforderungen.csv', '{Artikelnummer}', '400-1120'],
    ['NetSuite_Requisitions_SavedSearch.csv', '{Item}', 'MON-27-4K'],
  ])('%s: from %s', async (file, template, first) => {
    const path = join(ROOT, 'samples', file);
    const { s, profile } = await suggestAndLoad(path);
    expect(s.yaml).toMatch(new RegExp(`product_code: "${template.replace(/[{}]/g, '\\$&')}"`));
    const got = await ingestWith(path, [profile], profile.name);
    const lines = got.reqs.flatMap((r) => r.lines);
    expect(lines[0]?.product_code).toBe(first);
    // a line without an item number (free text) has none: its price history goes by name and unit
    expect(lines.filter((l) => l.product_code !== undefined).length).toBeGreaterThan(lines.length / 2);
    expect(lines.some((l) => l.product_code === '')).toBe(false);
  });
});

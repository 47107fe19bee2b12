/**
 * `check --suggest` on every shipped sample: the drafted profile, parsed from its YAML text and used unedited, gives
 * the same requisitions, external_ids, quantities and estimated prices as the shipped hand-written profile, or marks
 * for review exactly the settings behind each difference.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { differences, EXPLAINS, ingestWith, missingRequired, suggestAndLoad } from './suggest-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SAMPLES = readdirSync(join(ROOT, 'samples'))
  .filter((f) => /\.(csv|xlsx)$/.test(f))
  .sort();

describe('check --suggest on the shipped samples', async () => {
  const shipped = await loadProfiles(join(ROOT, 'mappings'));
  it('covers every shipped sample, the three layouts added for --suggest among them', () => {
    expect(SAMPLES.length).toBeGreaterThanOrEqual(10);
    expect(SAMPLES).toEqual(
      expect.arrayContaining([
        'NetSuite_Requisitions_SavedSearch.csv',
        'Sage100_Bedarfsanforderungen.csv',
        'Maintenance_requests_Q2-2027.xlsx',
      ]),
    );
  });
  for (const file of SAMPLES) {
    it(`${file}: same requisitions, external_ids, quantities and prices as the shipped profile, or a review point on each difference`, async () => {
      const path = join(ROOT, 'samples', file);
      const { profile, reviews } = await suggestAndLoad(path);
      const want = await ingestWith(path, shipped);
      expect(want.reqs.length).toBeGreaterThan(0);
      const got = await ingestWith(path, [profile], profile.name);
      expect(got.rejected).toBe(0);
      expect(got.held).toBe(0);
      // everything the service requires is filled, on every requisition and line
      expect(got.reqs.flatMap((r) => missingRequired(r).map((m) => `${r.key} ${m}`))).toEqual([]);
      const diff = differences(got.reqs, want.reqs);
      // every difference is marked for review
      for (const a of diff)
        expect(
          EXPLAINS[a].some((p) => reviews.includes(p)),
          `${a} differs without a review point (reviews: ${reviews.join(', ')})`,
        ).toBe(true);
      // and nothing that matches is marked, except the external_id prefix: only the user knows which other exports
      // feed the same account, so that point is always raised (here the hand-written profile chose no prefix)
      for (const a of ['requisition', 'qty', 'estimated_price'] as const) {
        if (!diff.has(a))
          expect(
            reviews.filter((p) => EXPLAINS[a].includes(p) && !EXPLAINS.external_id.includes(p)),
            `${a} matches but is marked`,
          ).toEqual([]);
      }
      // an external_id difference is exactly the prefix the review point asks about
      if (diff.has('external_id')) {
        const ids = (rs: Requisition[]) => rs.flatMap((r) => r.lines.map((l) => l.external_id));
        const prefix = want.reqs[0]!.lines[0]!.external_id.slice(0, -got.reqs[0]!.lines[0]!.external_id.length);
        expect(prefix).toMatch(/^[A-Z0-9]+-$/);
        expect(ids(got.reqs).map((id) => prefix + id)).toEqual(ids(want.reqs));
      }
    });
  }
});

/**
 * `check --suggest` with a service configured: the drafted rfq_category is checked against the categories the
 * account's suppliers follow (the sandbox's vendor directory over real HTTP). Values nobody follows are named in a
 * review point with the categories that are followed; a value spelt differently only in letter case is drafted into
 * category_map with the directory's spelling; a service that cannot be asked is said in the evidence, never fatal;
 * without a service nothing is checked.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followedCategories } from '../../app/commands/suggest-vendors.ts';
import { loadConfig, PACKAGE_ROOT } from '../../src/settings/config.ts';
import { suggestProfile } from '../../src/ingest/suggest/profile.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { LIMITS, NOW } from '../ingest/suggest-helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const sandbox = useSandbox();
const dir = tempDir('rfq-suggest-vendors-');

const configFor = (baseUrl?: string) =>
  loadConfig({
    RFQ_SYNC_DIR: dir,
    HTTP_PORT: '0',
    SOURCING_CONNECT_TIMEOUT_MS: '500',
    SOURCING_GET_RETRIES: '0',
    ...(baseUrl ? { SOURCING_BASE_URL: baseUrl, SOURCING_TOKEN: sandbox.token } : {}),
  });

async function draft(file: string, baseUrl?: string) {
  const followed = await followedCategories(configFor(baseUrl));
  return suggestProfile(file, { limits: LIMITS, now: NOW, followed });
}

describe('the drafted rfq_category against the account vendor directory', () => {
  it('names the values no supplier follows, with the categories that are followed', async () => {
    const s = await draft(join(PACKAGE_ROOT, 'samples', 'Facilities_open_requisitions.xlsx'), sandbox.url);
    const review = s.reviews.find((r) => r.path === 'fields.rfq_category')!;
    expect(review.text).toMatch(/^"Flooring", "Cleaning services" match no category the account's suppliers follow/);
    expect(review.text).toMatch(/"Components", .*\(17 in all\) with category_map/);
    expect(s.evidence.find((e) => e.choice === '2 of 4 followed')!.why).toMatch(
      /against the 17 categories the account's suppliers follow \(GET \/v1\/vendors: 20 vendors\)/,
    );
    expect(s.yaml).toMatch(/# REVIEW: "Flooring", "Cleaning services" match no category[^\n]*\n {2}rfq_category:/);
  });

  it('a value spelt differently only in letter case is drafted into category_map with the directory spelling', async () => {
    const csv = join(dir, 'cases.csv');
    writeFileSync(
      csv,
      'PR,Line,Item,Qty,Unit,Total,Category,Plant,Need by\n' +
        'P-1,1,Safety shoes,4,pair,240,safety,Plant 1,2031-03-01\n' +
        'P-2,1,Cable ties,100,pc,12,Electrical,Plant 1,2031-03-01\n',
    );
    const s = await draft(csv, sandbox.url);
    expect(s.raw.category_map).toEqual({ safety: 'Safety' });
    expect(s.profile.categoryMap).toBeDefined();
    expect(s.reviews.map((r) => r.path)).not.toContain('fields.rfq_category');
  });

  it('a service that cannot be asked is said in the evidence; without a service nothing is checked', async () => {
    const file = join(PACKAGE_ROOT, 'samples', 'BANF_Liste_Einkauf.csv');
    const down = await draft(file, 'http://127.0.0.1:9');
    expect(down.evidence.find((e) => e.choice === '(not checked)')!.why).toMatch(
      /^the vendor directory was not read: http:\/\/127\.0\.0\.1:9 could not be asked/,
    );
    expect(down.reviews.map((r) => r.path)).not.toContain('fields.rfq_category');
    const none = await draft(file);
    expect(none.evidence.filter((e) => e.what === 'fields.rfq_category')).toHaveLength(1); // the column's only
  });
});

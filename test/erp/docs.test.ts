/**
 * docs/erp-outputs.md stays true to the code: its vocabulary table lists every field with its level and kind, in
 * the code's order; each shipped profile has its section (import route, settings, a sample, a superseding version)
 * naming every ERP_* setting the profile needs; the demo's own cross-reference knows every supplier of the sandbox.
 * Pure: reads files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFolderProfiles, VOCABULARY } from '../../src/erp/index.ts';
import { openVendorXref } from '../../src/erp/vendor-xref.ts';
import { SUPPLIER_NAMES } from '../../src/sandbox/vendors.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs', 'erp-outputs.md'), 'utf8');

describe('docs/erp-outputs.md', () => {
  it('lists the vocabulary as the code has it', () => {
    const rows = [...DOC.matchAll(/^\| `([a-z_]+)` \| (award|po|line) \| (\w+) \| /gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(Object.entries(VOCABULARY).map(([k, v]) => [k, v.level, v.kind]));
  });

  it('has a section per shipped profile with its import route, settings, a sample and what a new version means', async () => {
    const { profiles } = await loadFolderProfiles(join(ROOT, 'erp-outputs'));
    for (const p of profiles) {
      const start = DOC.indexOf(`: ${p.name}\n`);
      expect(start, p.name).toBeGreaterThan(0);
      const section = DOC.slice(start, DOC.indexOf('\n## ', start));
      for (const part of ['**Import route**', '**Settings**', '**Superseding version**', 'Sample'])
        expect(section, `${p.name}: ${part}`).toContain(part);
      expect(section, p.name).toContain(`(\`${p.newVersion}\`)`);
      for (const s of p.settings) expect(section, `${p.name}: ${s}`).toContain(s);
    }
  });

  it("the demo's cross-reference gives every sandbox supplier an ERP vendor", async () => {
    const x = await (await openVendorXref(join(ROOT, 'erp-outputs', 'demo-vendor-xref.csv'), {})).current();
    for (const name of SUPPLIER_NAMES) expect(x.vendorOf('any-key', name)?.id, name).toMatch(/^\d{10}$/);
  });
});

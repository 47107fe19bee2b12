/** The configuration table of docs/operations.md ("All settings") is the one generated from src/settings/config.ts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rawConfigSchema } from '../../src/settings/config.ts';
import { DOC_PATH, configurationTable, renderDoc } from '../../scripts/config-doc.ts';

describe('configuration table of docs/operations.md', () => {
  it('lists every setting of the schema, with its default, and is up to date (node scripts/config-doc.ts --write)', () => {
    expect(DOC_PATH).toMatch(/docs[/\\]operations\.md$/);
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(renderDoc(doc)).toBe(doc);
    const table = configurationTable();
    for (const key of Object.keys(rawConfigSchema.shape))
      expect(table).toMatch(new RegExp(`^\\| \`${key}\` \\| .+ \\| .+ \\|$`, 'm'));
    expect(table).toContain('| `POLL_CRON` | `*/5 * * * *` |');
  });

  it("gives each setting the comment right above its field, not its file's header or code", () => {
    const rows = configurationTable().split('\n').slice(2);
    expect(rows.filter((r) => /\bimport\b|export const|Settings:/.test(r))).toEqual([]);
    expect(configurationTable()).toContain(
      '| `SOURCING_BASE_URL` | (unset) | Sourcing service base URL, including any prefix before /v1.',
    );
    expect(configurationTable()).toContain('| `RFQ_SYNC_DIR` | `./rfq-sync-data` | Root of inbox/ processing/');
  });
});

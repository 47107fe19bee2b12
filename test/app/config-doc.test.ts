/** The configuration table in README.md is the one generated from src/config.ts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rawConfigSchema } from '../../src/config.ts';
import { DOC_PATH, configurationTable, renderDoc } from '../../app/config-doc.ts';

describe('README configuration table', () => {
  it('lists every setting of the schema, with its default, and is up to date (node app/config-doc.ts --write)', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(renderDoc(doc)).toBe(doc);
    const table = configurationTable();
    for (const key of Object.keys(rawConfigSchema.shape))
      expect(table).toMatch(new RegExp(`^\\| \`${key}\` \\| .+ \\| .+ \\|$`, 'm'));
    expect(table).toContain('| `POLL_CRON` | `*/5 * * * *` |');
  });

  it("each setting's text is the comment right above it, never its file's header nor code between", () => {
    const rows = configurationTable().split('\n').slice(2);
    for (const row of rows) expect(row).not.toMatch(/Settings: |\bimport \{/);
    expect(rows.find((r) => r.startsWith('| `RFQ_SYNC_DIR` '))).toContain('| Root of inbox/ processing/ archive/');
  });
});

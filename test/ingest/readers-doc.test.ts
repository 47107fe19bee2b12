/**
 * docs/mapping.md's reader table is the one scripts/readers-doc.ts generates from the format modules' list: each
 * format's row names how it is recognised, read and decoded, and its sheet limits. Pure: reads the doc.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/ingest/index.ts';
import { BEGIN, DOC_FILE, END, REPO_ROOT, readerTable, renderDoc } from '../../scripts/readers-doc.ts';

describe('the reader table of docs/mapping.md', () => {
  const doc = readFileSync(join(REPO_ROOT, DOC_FILE), 'utf8');

  it('is the generated one, up to date (npm run docs:readers -- --write)', () => {
    expect(doc).toContain(BEGIN);
    expect(renderDoc(doc)).toBe(doc);
  });

  it('has a row per format: its encodings, and its limits or none', () => {
    const rows = doc.slice(doc.indexOf(BEGIN), doc.indexOf(END)).split('\n').slice(3, -1);
    expect(rows).toHaveLength(FORMATS.length);
    for (const [i, f] of FORMATS.entries()) {
      expect(rows[i]).toContain(f.doc.encodings.replace(/\|/g, '\\|'));
      for (const l of f.limits) expect(rows[i]).toContain(`${l.rows.toLocaleString('en-US')} rows`);
      if (f.limits.length === 0) expect(rows[i]).toContain('none (text has no sheet to fill)');
    }
  });

  it('sees a stale table (it can fail)', () => {
    const stale = doc.replace(readerTable(), readerTable(FORMATS.slice(1)));
    expect(stale).not.toBe(doc);
    expect(renderDoc(stale)).toBe(doc);
  });
});

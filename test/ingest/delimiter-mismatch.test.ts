/**
 * A profile pinned to one delimiter (`source.delimiter: ";"`) gets the export saved with another (tab): the refusal
 * says so, naming the file, the delimiter the profile expects and the one the file has, whether the profile was
 * chosen by the file's name and header or named with --mapping. Before: "missing: Bestellanforderung, Pos.
 * Bestellanf., ..." although the header is there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, loadProfiles, runCheck, type MappingProfile } from '../../src/ingest/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { LIMITS, NOW } from './suggest-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let profiles: MappingProfile[];
let tabs: string;
beforeAll(async () => {
  profiles = await loadProfiles(join(ROOT, 'mappings'));
  // the SAP ME5A list saved as "Text with Tabs" instead of the spreadsheet format the profile pins (";")
  tabs = join(tempDir(), 'ME5A_export_DE_tabs.csv');
  const text = readFileSync(join(ROOT, 'samples', 'ME5A_export_DE.csv'), 'latin1');
  writeFileSync(tabs, text.replaceAll(';', '\t'), 'latin1');
});

const SAYS =
  'ME5A_export_DE_tabs.csv: is delimited by tab, not by ";" as mapping "sap-me5a-de" pins (source.delimiter): its header is on row 4 when split by tab; save the export with ";", or set source.delimiter to "\\t" (or auto)';

describe('a file saved with another delimiter than its profile pins', () => {
  it.each([
    ['chosen by its name and header', undefined],
    ['named with --mapping', 'sap-me5a-de'],
  ])('%s: refused naming the file, the delimiter expected and the one found', async (_how, mappingName) => {
    await expect(ingestFile(tabs, { profiles, mappingName, limits: LIMITS, now: NOW }, async () => {})).rejects.toThrow(
      SAYS,
    );
    const lines: string[] = [];
    const code = await runCheck(tabs, { profiles, mappingName, limits: LIMITS, now: NOW }, (l) => lines.push(l));
    expect(code).toBe(2);
    expect(lines).toEqual([`cannot read: ${SAYS}`]);
  });

  it('with the delimiter it pins, the same export is read', async () => {
    const lines: string[] = [];
    const code = await runCheck(
      join(ROOT, 'samples', 'ME5A_export_DE.csv'),
      { profiles, limits: LIMITS, now: NOW },
      (l) => lines.push(l),
    );
    expect(code, lines.join('\n')).toBe(0);
  });
});

/**
 * A broken profile in the mapping folder (not YAML, failing the schema, a name already taken) is skipped with its
 * reason, and never stops the others: `check` of a file for a good profile still works (it used to exit 2 for every
 * file). A file only the broken profile could take (its file-name pattern, or its columns ranked above every working
 * profile's, or nothing else fits and a profile could not be read at all) is held for it, not refused; every other
 * file is read or refused as before.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRefusedError, ProfileBrokenError } from '../../src/core/errors.ts';
import { ingestFile, loadProfileCatalog, loadProfiles, type ProfileCatalog } from '../../src/ingest/index.ts';
import { LEGACY_PROFILE_BROKEN } from '../helpers/profiles.ts';
import { LIMITS, NOW } from './suggest-helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = tempDir('rfq-broken-profiles-');
mkdirSync(join(dir, 'data'));

const LEGACY = LEGACY_PROFILE_BROKEN;

function folder(files: Record<string, string>): string {
  const d = tempDir('maps-', dir);
  cpSync(join(ROOT, 'mappings', 'generic.yaml'), join(d, 'generic.yaml'));
  for (const [n, text] of Object.entries(files)) writeFileSync(join(d, n), text);
  return d;
}

function csv(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

async function outcome(path: string, c: ProfileCatalog, mappingName?: string): Promise<string> {
  try {
    const s = await ingestFile(
      path,
      { profiles: c.profiles, broken: c.broken, limits: LIMITS, now: NOW, ...(mappingName ? { mappingName } : {}) },
      async () => undefined,
    );
    return `read with ${s.profile}`;
  } catch (err) {
    if (err instanceof ProfileBrokenError) return `held for ${err.profiles.map((p) => p.name).join(', ')}`;
    if (err instanceof FileRefusedError) return `refused: ${err.reason}`;
    throw err;
  }
}

const GENERIC = readFileSync(join(ROOT, 'samples', 'generic-template.csv'), 'utf8');
const LEGACY_ROWS = 'PR,Item,Qty,Unit,Total,Group\nL-1,Bearing,4,pc,48,Spares\n';

describe('the mapping folder with broken profiles', () => {
  it('loads the good ones and names each broken one with its reason', async () => {
    const c = await loadProfileCatalog(
      folder({
        'acme.yaml': 'name: acme\nfields: [\n',
        'legacy.yaml': LEGACY,
        'twin.yaml': readFileSync(join(ROOT, 'mappings', 'generic.yaml'), 'utf8'),
      }),
    );
    expect(c.profiles.map((p) => p.name)).toEqual(['generic']);
    const [acme, legacy, twin] = c.broken;
    expect([acme!.name, legacy!.name, twin!.name]).toEqual(['acme', 'legacy', 'generic']);
    expect(acme!.reason).toMatch(/acme\.yaml: not valid YAML: /);
    expect(legacy!.reason).toMatch(
      /legacy\.yaml: field fields\.external_id: Invalid input: expected string, received undefined$/,
    );
    expect(twin!.reason).toMatch(/twin\.yaml: field name: "generic" is already the name of .*generic\.yaml$/);
    expect(c.broken[1]!.claims).toEqual({
      filenameGlobs: ['legacy-*'],
      columns: ['PR', 'Item', 'Qty', 'Unit', 'Total', 'Group'],
    });
    // a command that must not run on part of the folder still refuses it, naming the first
    await expect(loadProfiles(join(c.broken[0]!.file, '..'))).rejects.toThrow(/acme\.yaml: not valid YAML/);
  });

  it('holds only the files the broken profile could take; every other file is read or refused as before', async () => {
    const c = await loadProfileCatalog(folder({ 'legacy.yaml': LEGACY }));
    expect(await outcome(csv('generic-1.csv', GENERIC), c)).toBe('read with generic');
    // its file-name pattern
    expect(await outcome(csv('legacy-1.csv', LEGACY_ROWS), c)).toBe('held for legacy');
    // its columns, under any name
    expect(await outcome(csv('export-7.csv', LEGACY_ROWS), c)).toBe('held for legacy');
    // its name pattern with other columns: it would have taken (and refused) it
    expect(await outcome(csv('legacy-2.csv', 'Foo,Bar\n1,2\n'), c)).toBe('held for legacy');
    // nothing to do with it: refused as ever
    expect(await outcome(csv('other.csv', 'Foo,Bar\n1,2\n'), c)).toMatch(/^refused: fits no mapping profile/);
    // asked for by name
    expect(await outcome(csv('generic-2.csv', GENERIC), c, 'legacy')).toBe('held for legacy');
  });

  it('a profile that cannot be read at all might have fitted any file nothing else fits: those are held for it', async () => {
    const c = await loadProfileCatalog(folder({ 'acme.yaml': '{ not: [yaml\n' }));
    expect(c.broken[0]!.claims).toBeUndefined();
    expect(await outcome(csv('generic-3.csv', GENERIC), c)).toBe('read with generic');
    expect(await outcome(csv('mystery.csv', 'Foo,Bar\n1,2\n'), c)).toBe('held for acme');
  });

  it('check with a broken profile in the folder: said on standard error, and the file checked with the others', () => {
    const maps = folder({ 'legacy.yaml': LEGACY });
    const run = (file: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'rfq-sync.ts'), 'check', file], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', MAPPINGS_DIR: maps, RFQ_SYNC_DIR: join(dir, 'data') },
      });
    const ok = run(join(ROOT, 'samples', 'generic-template.csv'));
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(
      /broken mapping profile skipped: mapping profile .*legacy\.yaml: field fields\.external_id/,
    );
    expect(ok.stdout).toContain('mapping profile "generic"');
    const held = run(csv('legacy-3.csv', LEGACY_ROWS));
    expect(held.status).toBe(2);
    expect(held.stdout).toMatch(/^held: legacy-3\.csv: held until the mapping profile "legacy" is fixed/);
  });
});

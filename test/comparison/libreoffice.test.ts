/**
 * The workbook must open cleanly outside Excel too: LibreOffice converts a realistic one to PDF without a load
 * error, and keeps the autofilter (it needs the _xlnm._FilterDatabase names we add). Skipped where LibreOffice
 * is not installed (Debian: apt-get install --no-install-recommends libreoffice-calc).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { demoInput } from './fixtures.ts';

function hasSoffice(): boolean {
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it.skipIf(!hasSoffice())('opens in LibreOffice without error: PDF export works and the autofilters survive', async () => {
  dir = await mkdtemp(join(tmpdir(), 'rfq-comparison-lo-'));
  const xlsx = join(dir, 'demo.xlsx');
  await writeComparisonWorkbook(demoInput(), xlsx);
  // A private profile, so a LibreOffice already running elsewhere cannot swallow the conversion.
  const profile = `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`;
  for (const format of ['pdf', 'ods']) {
    const run = spawnSync('soffice', [profile, '--headless', '--convert-to', format, '--outdir', dir, xlsx], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/Error:|could not be loaded|general input\/output error/i);
  }
  expect((await stat(join(dir, 'demo.pdf'))).size).toBeGreaterThan(10_000);
  const { unzipSync, strFromU8 } = await import('fflate');
  const ods = unzipSync(new Uint8Array(await readFile(join(dir, 'demo.ods'))));
  const content = strFromU8(ods['content.xml']!);
  expect(content).toContain('table:target-range-address="Comparison.A15:Comparison.AI23"');
  expect(content).toContain('PR-4711-10');
}, 180_000);

/**
 * The workbook must open cleanly outside Excel too: LibreOffice converts a realistic one to PDF without a load
 * error, and keeps the autofilter (it needs the _xlnm._FilterDatabase names we add). Its printout is read back
 * with pdftotext: every page repeats the line columns, no supplier group is cut in two, text is printed at 70 % or
 * more. Skipped where LibreOffice is not installed (Debian: apt-get install libreoffice-calc-nogui); the printout
 * check also needs pdftotext (poppler-utils) and Carlito, whose widths are Calibri's (fonts-crosextra-carlito):
 * with another font LibreOffice lays the columns out up to 30 % wider than Excel does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { demoInput } from './fixtures.ts';

function runs(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
const hasSoffice = (): boolean => runs('soffice', ['--version']);
const canReadPrintout = (): boolean => {
  if (!hasSoffice() || !runs('pdftotext', ['-v'])) return false;
  try {
    return /carlito/i.test(execFileSync('fc-match', ['Calibri'], { encoding: 'utf8', timeout: 30_000 }));
  } catch {
    return false;
  }
};

/** Converts with a private profile, so a LibreOffice already running elsewhere cannot swallow the conversion. */
function convert(xlsx: string, format: string): void {
  const profile = `-env:UserInstallation=${pathToFileURL(join(dir, `profile-${format}`)).href}`;
  const run = spawnSync('soffice', [profile, '--headless', '--convert-to', format, '--outdir', dir, xlsx], {
    encoding: 'utf8',
    timeout: 170_000,
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/Error:|could not be loaded|general input\/output error/i);
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rfq-comparison-lo-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it.skipIf(!hasSoffice())(
  'opens in LibreOffice without error: PDF export works and the autofilters survive',
  async () => {
    const xlsx = join(dir, 'demo.xlsx');
    await writeComparisonWorkbook(demoInput(), xlsx);
    for (const format of ['pdf', 'ods']) convert(xlsx, format);
    expect((await stat(join(dir, 'demo.pdf'))).size).toBeGreaterThan(10_000);
    const { unzipSync, strFromU8 } = await import('fflate');
    const ods = unzipSync(new Uint8Array(await readFile(join(dir, 'demo.ods'))));
    const content = strFromU8(ods['content.xml']!);
    expect(content).toContain('table:target-range-address="Comparison.A15:Comparison.AI23"');
    expect(content).toContain('PR-4711-10');
  },
  180_000,
);

it.skipIf(!canReadPrintout())(
  'prints readably: line columns on every page, whole supplier groups, text at 70 % or more',
  async () => {
    const input = demoInput();
    input.quotations = input.quotations.slice(0, 3);
    // a group's own header line (supplier names also appear as a line's best supplier and in the award summary)
    const names = input.quotations.map((q) => `key ${q.quotation_key} · rev`);
    const xlsx = join(dir, 'three.xlsx');
    await writeComparisonWorkbook(input, xlsx);
    convert(xlsx, 'pdf');
    const pdf = join(dir, 'three.pdf');
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
    const text = (p: number): string =>
      execFileSync('pdftotext', ['-f', String(p), '-l', String(p), '-layout', pdf, '-'], { encoding: 'utf8' });
    const comparisonPages = Array.from({ length: pages }, (_, i) => text(i + 1)).filter(
      (t) => t.includes('quote comparison') && /External ID/.test(t),
    );
    expect(comparisonPages.length).toBeGreaterThanOrEqual(3);
    const seen = new Map<string, number>();
    for (const page of comparisonPages) {
      // the line columns and the supplier-row labels repeat on every page
      expect(page).toMatch(/External ID\s+Product/);
      expect(page).toContain('Total of quoted lines');
      const here = names.filter((n) => page.includes(n));
      for (const n of here) seen.set(n, (seen.get(n) ?? 0) + 1);
      // a whole group: its name, its four column headers and its coverage together on the page
      expect((page.match(/Unit price/g) ?? []).length).toBe(here.length);
      expect((page.match(/of 8 \(\d+%\)/g) ?? []).length).toBe(here.length);
    }
    // each supplier printed once (a short RFQ: one page down), none left out
    expect([...seen.values()]).toEqual(names.map(() => 1));
    // Text size: an 11 pt line text printed at 70 % has a box at least 0.7 x 11 x 1.15 pt high (5 pt before).
    execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', pdf, join(dir, 'bbox.html')]);
    const box = /<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">PR-4711-10<\/word>/.exec(
      await readFile(join(dir, 'bbox.html'), 'utf8'),
    )!;
    expect(Number(box[2]) - Number(box[1])).toBeGreaterThanOrEqual(0.7 * 11 * 1.15);
  },
  180_000,
);

/**
 * `npm run docs:picture`: renders the first page of a demo comparison (8 lines, 3 suppliers) as docs/comparison.md shows
 * it, to docs/comparison-page1.png: the workbook as rfq-sync writes it, printed to PDF by LibreOffice, page 1 as a
 * PNG at 100 dpi. Needs soffice, pdftoppm and Carlito (Debian: libreoffice-calc-nogui poppler-utils
 * fonts-crosextra-carlito).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeComparisonWorkbook } from '../src/comparison/index.ts';
import { demoInput } from '../test/comparison/fixtures.ts';

const target = fileURLToPath(new URL('./comparison-page1.png', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'rfq-docs-picture-'));
try {
  const input = demoInput();
  input.quotations = input.quotations.slice(0, 3);
  const xlsx = join(dir, 'comparison.xlsx');
  await writeComparisonWorkbook(input, xlsx);
  const profile = `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`;
  execFileSync('soffice', [profile, '--headless', '--convert-to', 'pdf', '--outdir', dir, xlsx], {
    stdio: 'ignore',
    timeout: 180_000,
  });
  execFileSync('pdftoppm', [
    '-f',
    '1',
    '-l',
    '1',
    '-r',
    '100',
    '-png',
    '-singlefile',
    join(dir, 'comparison.pdf'),
    join(dir, 'page1'),
  ]);
  await copyFile(join(dir, 'page1.png'), target);
  console.log(`wrote ${target}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

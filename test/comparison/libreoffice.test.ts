/**
 * The workbook must open cleanly outside Excel too: LibreOffice converts a realistic one to PDF without a load
 * error, and keeps the autofilter (it needs the _xlnm._FilterDatabase names we add). Its printout is read back
 * with pdftotext: a short RFQ's Comparison sheet is one page; a long one's pages repeat the line columns, no
 * supplier group is cut in two, text is printed at 70 % or more; no amount prints as `###`. Skipped where LibreOffice is not installed (Debian: apt-get install libreoffice-calc-nogui); the printout
 * check also needs pdftotext (poppler-utils) and Carlito, whose widths are Calibri's (fonts-crosextra-carlito):
 * with another font LibreOffice lays the columns out up to 30 % wider than Excel does.
 */
import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { COMPARISON_COLS as C } from '../../src/comparison/sheets/comparison/comparison-layout.ts';
import { colLetter } from '../../src/comparison/sheets/sheet-common.ts';
import { demoInput, printInput, shortNamesInput } from './fixtures.ts';
import { CONVERT_TIMEOUT_MS, convertWithLibreOffice, hasSoffice } from '../helpers/libreoffice.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function runs(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
const canReadPrintout = (): boolean => {
  if (!hasSoffice() || !runs('pdftotext', ['-v'])) return false;
  try {
    return /carlito/i.test(execFileSync('fc-match', ['Calibri'], { encoding: 'utf8', timeout: 30_000 }));
  } catch {
    return false;
  }
};

/** Time-out of a test: two conversions, each tried twice at most, and the rest. */
const TEST_TIMEOUT_MS = 4 * CONVERT_TIMEOUT_MS + 60_000;

/** Converts `xlsx` to `format` beside it. */
async function convert(xlsx: string, format: string): Promise<void> {
  await convertWithLibreOffice(xlsx, format, dir);
}

let dir = '';
beforeAll(async () => {
  dir = tempDir('rfq-comparison-lo-');
});

it.skipIf(!hasSoffice())(
  'opens in LibreOffice without error: PDF export works and the autofilters survive',
  async () => {
    const xlsx = join(dir, 'demo.xlsx');
    await writeComparisonWorkbook(demoInput(), xlsx);
    for (const format of ['pdf', 'ods']) await convert(xlsx, format);
    expect((await stat(join(dir, 'demo.pdf'))).size).toBeGreaterThan(10_000);
    const { unzipSync, strFromU8 } = await import('fflate');
    const ods = unzipSync(new Uint8Array(await readFile(join(dir, 'demo.ods'))));
    const content = strFromU8(ods['content.xml']!);
    const last = colLetter(C.firstSupplier + 5 * C.perSupplier - 1);
    expect(content).toContain(`table:target-range-address="Comparison.A15:Comparison.${last}23"`);
    expect(content).toContain('PR-4711-10');
  },
  TEST_TIMEOUT_MS,
);

/** The printed size (pt) of an 11 pt word on page 1: its pdftotext box height over Carlito's 1.293 em box. */
async function printedPt(pdf: string, word: string): Promise<number> {
  const html = `${pdf}.bbox.html`;
  execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', pdf, html]);
  const box = new RegExp(`<word xMin="[\\d.]+" yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${word}</word>`).exec(
    await readFile(html, 'utf8'),
  )!;
  return (Number(box[2]) - Number(box[1])) / 1.293;
}

/** The PDF's pages, as text, and which of them are the Comparison sheet's (its footer names it). */
function pdfPages(pdf: string): { all: string[]; comparison: number[] } {
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
  const all = Array.from({ length: pages }, (_, i) =>
    execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', pdf, '-'], { encoding: 'utf8' }),
  );
  return { all, comparison: all.flatMap((t, i) => (t.includes('quote comparison') ? [i + 1] : [])) };
}

it.skipIf(!canReadPrintout())(
  'a short RFQ (25 lines, 5 quotations; the demo) prints its Comparison sheet on one page, with no `###` anywhere',
  async () => {
    for (const [name, input] of [
      ['short25', printInput(25, 5, { lastAwards: {} })],
      ['demo5', demoInput()],
      // short product names: the header block's dates (RFQ date, due date, generated) over a narrow column
      ['short-names', shortNamesInput()],
    ] as const) {
      const xlsx = join(dir, `${name}.xlsx`);
      await writeComparisonWorkbook(input, xlsx);
      await convert(xlsx, 'pdf');
      const { all, comparison } = pdfPages(join(dir, `${name}.pdf`));
      expect(comparison, name).toHaveLength(1);
      expect(all[comparison[0]! - 1]).toMatch(/RFQ 117 quote comparison\s+Page 1 of \d+/);
      // every sheet: an amount too wide for its column prints as ###
      for (const [i, page] of all.entries()) expect(page, `${name} page ${i + 1}`).not.toContain('###');
      // the award summary and the supplier ranking are on that page
      expect(all[comparison[0]! - 1]).toContain('Award summary');
      expect(all[comparison[0]! - 1]).toContain('Rank by total');
      expect(all[comparison[0]! - 1]).toContain('Evaluated by');
    }
    // The printed size of the 11 pt line text (its word box is 1.29 x the size in Carlito, measured at a known
    // scale): 7 pt and more up to 12 lines and 4 quotations; a 25-line, 5-quotation page is wider than A4 holds at
    // 7 pt and prints at about 6.5 pt (docs/comparison.md#printing).
    const sizes: Record<string, number> = {};
    for (const [name, input, least] of [
      ['s12x4', printInput(12, 4, { lastAwards: {} }), 7],
      ['s25x5', printInput(25, 5, { lastAwards: {} }), 6],
    ] as const) {
      const xlsx = join(dir, `${name}.xlsx`);
      await writeComparisonWorkbook(input, xlsx);
      await convert(xlsx, 'pdf');
      sizes[name] = await printedPt(join(dir, `${name}.pdf`), 'PR-4711-010');
      expect(sizes[name], name).toBeGreaterThanOrEqual(least);
    }
    // the amount the committee looks for: the lowest line total, bold on green, whole
    expect(pdfPages(join(dir, 'short25.pdf')).all.join('\n')).toMatch(/8,203,\d{3}\.\d{2} EUR/);
  },
  TEST_TIMEOUT_MS,
);

it.skipIf(!canReadPrintout())(
  'a long RFQ prints in blocks: line columns and supplier labels on every page, whole supplier groups, 70 % or more',
  async () => {
    const input = printInput(30, 6);
    // a group's own header line (supplier names also appear as a line's best supplier and in the award summary)
    const names = input.quotations.map((q) => `key ${q.quotation_key} · rev`);
    const xlsx = join(dir, 'long.xlsx');
    await writeComparisonWorkbook(input, xlsx);
    await convert(xlsx, 'pdf');
    const pdf = join(dir, 'long.pdf');
    const { all, comparison } = pdfPages(pdf);
    expect(comparison.length).toBeGreaterThanOrEqual(3);
    // page 1 carries the award and the ranking (the award summary itself follows the last line)
    const first = all[comparison[0]! - 1]!;
    expect(first).toMatch(/Split award [\d,]+\.\d{2} EUR \(30 of 30 lines\)/);
    expect(first).toMatch(/Ranking by total: 1\. /);
    const seen = new Map<string, number>();
    for (const p of comparison) {
      const page = all[p - 1]!;
      // the line columns and the supplier-row labels repeat on every page, numbered with the RFQ
      expect(page).toMatch(/External ID\s+Product/);
      expect(page).toContain('Total of quoted lines');
      expect(page).toMatch(/RFQ 117 quote comparison\s+Page \d+ of \d+/);
      expect(page).not.toContain('###');
      const here = names.filter((n) => page.includes(n));
      for (const n of here) seen.set(n, (seen.get(n) ?? 0) + 1);
      // a whole group: its name, its column headers and its coverage together on the page
      expect((page.match(/Unit price/g) ?? []).length).toBe(here.length);
      expect((page.match(/of 30 \(\d+%\)/g) ?? []).length).toBe(here.length);
    }
    // each supplier printed on every page down (the lines run onto a second page), none left out
    expect(names.every((n) => (seen.get(n) ?? 0) >= 1)).toBe(true);
    // Text size: an 11 pt line text printed at 70 % has a box at least 0.7 x 11 x 1.15 pt high.
    execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', pdf, join(dir, 'bbox.html')]);
    const box = /<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">PR-4711-010<\/word>/.exec(
      await readFile(join(dir, 'bbox.html'), 'utf8'),
    )!;
    expect(Number(box[2]) - Number(box[1])).toBeGreaterThanOrEqual(0.7 * 11 * 1.15);
  },
  TEST_TIMEOUT_MS,
);

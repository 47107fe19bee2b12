/**
 * The pure parts of the overview (issue 14 item 8): the figures a comparison job keeps for it, taken from the very
 * model its workbook renders, and the renderer's behaviour when the file cannot be written.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildComparison } from '../../src/comparison/index.ts';
import {
  comparisonSummary,
  sortOverviewRows,
  writeOverview,
  writeOverviewWorkbook,
  OVERVIEW_COLS,
  type OverviewRow,
} from '../../src/comparison/overview.ts';
import { colLetter } from '../../src/comparison/sheets/sheet-common.ts';
import { GENERATED_AT, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-overview-');
});

const rfq = () =>
  makeRfq([
    { ext: 'A', product: 'Pump', qty: 4, est: '1000' },
    { ext: 'B', product: 'Seal kit', qty: 3, est: '90' },
  ]);

describe('comparisonSummary', () => {
  it('a split award: its total, the savings against the estimate, the suppliers named; a draft while undecided', () => {
    const model = buildComparison({
      rfq: rfq(),
      state: 'closed',
      generatedAt: GENERATED_AT,
      currency: 'EUR',
      quotations: [quote('1', 'Pumps Ltd', { L1: '240', L2: '35' }), quote('2', 'Seals Inc', { L1: '260', L2: '20' })],
    });
    // 4 x 240 + 3 x 20 = 1020 against 1090 estimated.
    expect(comparisonSummary(model)).toEqual({
      quotations: 2,
      bestTotal: '1020',
      currency: 'EUR',
      savings: '70',
      savingsPct: '0.06422',
      recommended: 'split: Pumps Ltd, Seals Inc',
      final: false,
    });
  });

  it('line totals (price basis line_total): the same total as the model, never price x qty; final once all decided', () => {
    const model = buildComparison({
      rfq: rfq(),
      state: 'closed',
      generatedAt: GENERATED_AT,
      priceBasis: 'line_total',
      quotations: [
        quote('1', 'Totals GmbH', { L1: '980.00', L2: '100' }, { status: 'qualified' }),
        quote('2', 'Other AG', { L1: '1010', L2: '95.5' }, { status: 'not qualified' }),
      ],
    });
    const s = comparisonSummary(model);
    expect(s).toMatchObject({ bestTotal: '1080', savings: '10', recommended: 'Totals GmbH', final: true });
    expect(s.bestTotal).toBe(model.award.awardedTotal.toFixed());
    expect(s.currency).toBeUndefined();
  });

  it('no savings figure when a line is not awarded (a partial award is no saving), none at all without quotations', () => {
    const partial = buildComparison({
      rfq: rfq(),
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [quote('1', 'Half', { L1: '200' })],
    });
    expect(comparisonSummary(partial)).toEqual({ quotations: 1, bestTotal: '800', recommended: 'Half', final: false });
    const none = buildComparison({ rfq: rfq(), state: 'open', generatedAt: GENERATED_AT, quotations: [] });
    expect(comparisonSummary(none)).toEqual({ quotations: 0, final: false });
  });
});

describe('the overview renderer', () => {
  it('sorts by due date, RFQs without one last, equal dates by id', () => {
    const rows: OverviewRow[] = [
      { rfqId: 3, state: 'open' },
      { rfqId: 2, state: 'open', dueDate: 200 },
      { rfqId: 1, state: 'open', dueDate: 200 },
      { rfqId: 4, state: 'open', dueDate: 100 },
    ];
    expect(sortOverviewRows(rows).map((r) => r.rfqId)).toEqual([4, 1, 2, 3]);
  });

  it(
    'rejects when the file cannot be written, after rows were streamed (exceljs alone waits forever)',
    { timeout: 10_000 },
    async () => {
      const rows: OverviewRow[] = Array.from({ length: 300 }, (_, i) => ({
        rfqId: i,
        state: 'open',
        requisition: `PR-${i}`,
      }));
      await expect(
        writeOverviewWorkbook(rows, join(dir, 'no-such-folder', 'overview.xlsx'), {
          timeZone: 'UTC',
          generatedAt: GENERATED_AT,
        }),
      ).rejects.toThrow(/ENOENT/);
    },
  );
});

function hasSoffice(): boolean {
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

it.skipIf(!hasSoffice())(
  'opens in LibreOffice without error, with its filter on the header row',
  async () => {
    const xlsx = join(dir, 'overview.xlsx');
    const rows: OverviewRow[] = [
      {
        rfqId: 1,
        state: 'closed',
        requisition: 'PR-4711',
        sourceFile: 'ME5A.csv',
        dueDate: Date.UTC(2026, 11, 1),
        currency: 'EUR',
        comparison: 'comparisons/RFQ-1-1-v1.xlsx',
        summary: {
          quotations: 3,
          bestTotal: '1020.5',
          currency: 'EUR',
          savings: '69.5',
          savingsPct: '0.0638',
          recommended: 'Pumps Ltd',
          final: false,
        },
      },
      { rfqId: 2, state: 'open', requisition: 'PR-4712', sourceFile: 'ME5A.csv', flagged: true },
    ];
    await writeOverview(rows, xlsx, { timeZone: 'Europe/Berlin', generatedAt: GENERATED_AT, account: 'acme' });
    const profile = `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`;
    const run = spawnSync('soffice', [profile, '--headless', '--convert-to', 'ods', '--outdir', dir, xlsx], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/Error:|could not be loaded|general input\/output error/i);
    const { unzipSync, strFromU8 } = await import('fflate');
    const content = strFromU8(unzipSync(new Uint8Array(await readFile(join(dir, 'overview.ods'))))['content.xml']!);
    // The filter spans every column of the overview (the last one taken from its column map, so a column added
    // later is covered too) and the header plus the two rows.
    const last = colLetter(Math.max(...Object.values(OVERVIEW_COLS)));
    expect(content).toContain(`table:target-range-address="Overview.A3:Overview.${last}5"`);
    expect(content).toContain('PR-4711');
  },
  180_000,
);

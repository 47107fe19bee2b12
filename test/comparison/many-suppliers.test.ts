/**
 * 60 suppliers on one RFQ: every cell of every column group is checked against an independent brute-force
 * computation (ranks = 1 + number of strictly lower qualified prices; totals summed in decimal).
 */
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import ExcelJS from 'exceljs';
import type { Cell } from 'exceljs';
import { expect, it } from 'vitest';
import { writeAwardCsv, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import type { ComparisonInput } from '../../src/comparison/index.ts';
import type { Quotation } from '../../src/sourcing/types.ts';
import { GENERATED_AT, makeRfq, quote } from './fixtures.ts';
import { readFile } from 'node:fs/promises';
import { tempDir } from '../helpers/temp-dir.ts';
import { COMPARISON_COLS as C, COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

const SUPPLIERS = 60;
const LINES = 12;

let dir = '';

/** Small deterministic generator: the same prices on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function build(): ComparisonInput {
  const rand = lcg(42);
  const rfq = makeRfq(
    Array.from({ length: LINES }, (_, i) => ({
      ext: `EXT-${i + 1}`,
      product: `Part ${i + 1}`,
      qty: 1 + i * 3,
      est: String(100 * (i + 1)),
    })),
  );
  const quotations: Quotation[] = [];
  for (let s = 0; s < SUPPLIERS; s++) {
    const prices: Record<string, string | null> = {};
    for (let l = 0; l < LINES; l++) {
      const r = rand();
      // ~10 % missing; prices from a coarse grid so ties happen.
      prices[`L${l + 1}`] = r < 0.1 ? null : (5 + Math.floor(rand() * 8) * 0.25 + l).toFixed(2);
    }
    quotations.push(
      quote(String(1000 + s), `Supplier ${String(s).padStart(2, '0')} Ltd`, prices, {
        quotation_date: Date.UTC(2026, 0, 1) + s * 60_000,
        status: s % 7 === 3 ? 'not qualified' : s % 2 === 0 ? 'qualified' : undefined,
      }),
    );
  }
  return { rfq, state: 'closed', quotations, generatedAt: GENERATED_AT };
}

it('compares 60 suppliers: every price, line total, rank, total, coverage and style matches a brute-force check', async () => {
  dir = tempDir('rfq-comparison-60-');
  const input = build();
  const file = join(dir, 'sixty.xlsx');
  await writeComparisonWorkbook(input, file);
  await writeAwardCsv(input, join(dir, 'sixty.csv'));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet('Comparison')!;

  // Map the display order back to the quotations through the key in the group header.
  const byKey = new Map(input.quotations.map((q) => [q.quotation_key, q]));
  const order: Quotation[] = [];
  for (let s = 0; s < SUPPLIERS; s++) {
    const info = String(ws.getCell(R.supplierInfo, C.firstSupplier + s * C.perSupplier).value);
    const key = /^key (\d+) ·/.exec(info)?.[1];
    order.push(byKey.get(key!)!);
  }
  expect(new Set(order.map((q) => q.quotation_key)).size).toBe(SUPPLIERS);
  expect(ws.getCell(R.columnHeader, C.firstSupplier + SUPPLIERS * C.perSupplier - 1).value).toBe('vs last');
  expect(ws.getCell(R.columnHeader, C.firstSupplier + SUPPLIERS * C.perSupplier).value).toBeNull();

  const eligible = (q: Quotation): boolean => q.status !== 'not qualified';
  const price = (q: Quotation, l: number): Decimal | null => {
    const p = q.detail.find((d) => d.line_id === `L${l + 1}`)?.price;
    return p ? new Decimal(p) : null;
  };
  const fill = (c: Cell): string | undefined =>
    c.fill && c.fill.type === 'pattern' && c.fill.pattern !== 'none'
      ? `${c.fill.pattern}:${c.fill.fgColor?.argb}`
      : undefined;

  let ties = 0;
  for (let l = 0; l < LINES; l++) {
    const row = R.firstLine + l;
    const qty = 1 + l * 3;
    const eligiblePrices = input.quotations
      .filter(eligible)
      .map((q) => price(q, l))
      .filter((p): p is Decimal => p !== null);
    const min = Decimal.min(...eligiblePrices);
    if (eligiblePrices.filter((p) => p.eq(min)).length > 1) ties++;
    expect(ws.getCell(row, C.lowest).value).toBe(min.toNumber());
    expect(ws.getCell(row, C.highest).value).toBe(Decimal.max(...eligiblePrices).toNumber());
    expect(ws.getCell(row, C.quotes).value).toBe(eligiblePrices.length);
    order.forEach((q, s) => {
      const c0 = C.firstSupplier + s * C.perSupplier;
      const p = price(q, l);
      const unit = ws.getCell(row, c0);
      const total = ws.getCell(row, c0 + 1);
      const rank = ws.getCell(row, c0 + 3);
      if (p === null) {
        expect(unit.value).toBeNull();
        expect(total.value).toBeNull();
        expect(fill(unit)).toBe('lightUp:FFBFBFBF');
        return;
      }
      expect(unit.value).toBe(p.toNumber());
      expect(total.value).toBe(p.mul(qty).toNumber());
      if (!eligible(q)) {
        expect(rank.value).toBeNull();
        expect(fill(unit)).toBe('solid:FFF2F2F2');
        return;
      }
      const expectedRank = 1 + eligiblePrices.filter((x) => x.lt(p)).length;
      expect(rank.value).toBe(expectedRank);
      expect(fill(unit)).toBe(expectedRank === 1 ? 'solid:FFC6EFCE' : undefined);
    });
  }
  expect(ties).toBeGreaterThan(0); // the grid of prices does produce ties

  // Totals, coverage and rank by total among qualified full-coverage suppliers.
  const totals = order.map((q) => {
    let t = new Decimal(0);
    let n = 0;
    for (let l = 0; l < LINES; l++) {
      const p = price(q, l);
      if (p) {
        t = t.add(p.mul(1 + l * 3));
        n++;
      }
    }
    return { t, n, q };
  });
  const rankable = totals.filter((x) => x.n === LINES && eligible(x.q));
  expect(rankable.length).toBeGreaterThan(3);
  totals.forEach((x, s) => {
    const c0 = C.firstSupplier + s * C.perSupplier;
    expect(ws.getCell(R.total, c0).value).toBe(x.t.toNumber());
    expect(ws.getCell(R.coverage, c0).value).toBe(`${x.n} of ${LINES} (${Math.round((x.n * 100) / LINES)}%)`);
    const rank = ws.getCell(R.rankByTotal, c0).value;
    if (x.n === LINES && eligible(x.q)) expect(rank).toBe(1 + rankable.filter((y) => y.t.lt(x.t)).length);
    else expect(typeof rank).toBe('string');
  });
  // Display order: ranked suppliers first, by total.
  const firstTotals = totals.slice(0, rankable.length).map((x) => x.t.toNumber());
  expect(firstTotals).toEqual([...firstTotals].sort((a, b) => a - b));

  const csv = (await readFile(join(dir, 'sixty.csv'), 'utf8')).trim().split('\r\n');
  expect(csv).toHaveLength(1 + LINES);
});

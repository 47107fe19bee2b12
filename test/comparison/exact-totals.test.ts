/**
 * A quotation's total and line totals are exact whatever the price texts look like: plain prices (12.34) are summed
 * as integers (src/comparison/stages/plain-decimal.ts), every other text and quantity through decimal.js, and both
 * must give decimal.js' own results: the same Decimal total, the same double in each cell.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { buildComparison } from '../../src/comparison/index.ts';
import { ExactSum, PlainDecimal } from '../../src/comparison/stages/plain-decimal.ts';
import { GENERATED_AT, makeRfq, quote } from './fixtures.ts';

/** A seeded random source, so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

describe('plain decimal texts', () => {
  it('reads digits with an optional point as an integer and a scale, and refuses every other text', () => {
    const plain = new PlainDecimal();
    const read = (text: string) => (plain.read(text) ? [plain.units, plain.scale] : undefined);
    expect(read('12.34')).toEqual([1234, 2]);
    expect(read('007.50')).toEqual([750, 2]);
    expect(read('0')).toEqual([0, 0]);
    expect(read('123456789012345')).toEqual([123456789012345, 0]);
    expect(read('1.23456789012345')).toEqual([123456789012345, 14]);
    for (const other of ['', '12.', '.5', '+1', '-1', '1e3', '0x1A', '1.2.3', ' 1', '1,5', '1234567890123456', 'NaN'])
      expect(read(other), other).toBeUndefined();
  });

  it('gives the double decimal.js gives, and exact sums of products, for random prices and quantities', () => {
    const rand = random(46);
    const plain = new PlainDecimal();
    const text = (maxDigits: number, maxScale = maxDigits): string => {
      const digits = 1 + Math.floor(rand() * maxDigits);
      let t = '';
      for (let d = 0; d < digits; d++) t += String(Math.floor(rand() * 10));
      const point = Math.max(Math.floor(rand() * digits), digits - maxScale);
      return point > 0 && point < digits ? `${t.slice(0, point)}.${t.slice(point)}` : t;
    };
    // Totals within decimal.js' 20 significant digits (below 10^15, 4 decimals), where its sums are exact too.
    const sum = new ExactSum();
    let expected = new Decimal(0);
    for (let i = 0; i < 5_000; i++) {
      const price = text(7, 4);
      expect(plain.read(price), price).toBe(true);
      expect(plain.double(), price).toBe(new Decimal(price).toNumber());
      const qty = 1 + Math.floor(rand() * 10_000);
      const sign = rand() < 0.1 ? -1 : 1;
      const product = new Decimal(price).mul(qty);
      expect(sum.addProduct(plain, qty, sign), `${price} x ${qty}`).toBe(product.toNumber());
      expected = sign === 1 ? expected.plus(product) : expected.minus(product);
    }
    expect(sum.total(new Decimal('0.001')).minus('0.001').toFixed()).toBe(expected.toFixed());
    // A product that is no safe integer count adds nothing and says so: decimal.js takes it.
    const large = new ExactSum();
    let fellBack = 0;
    for (let i = 0; i < 20_000; i++) {
      const price = text(15);
      expect(plain.read(price), price).toBe(true);
      expect(plain.double(), price).toBe(new Decimal(price).toNumber());
      const qty = Math.floor(rand() * 2 ** 40);
      const double = large.addProduct(plain, qty);
      const count = new Decimal(price).mul(qty).mul(new Decimal(10).pow(plain.scale));
      expect(Number.isNaN(double), `${price} x ${qty}`).toBe(count.gt(Number.MAX_SAFE_INTEGER));
      if (Number.isNaN(double)) fellBack++;
      else expect(double, `${price} x ${qty}`).toBe(new Decimal(price).mul(qty).toNumber());
    }
    expect(fellBack).toBeGreaterThan(1000);
  });
});

describe('quotation totals', () => {
  it('are decimal.js sums of the line totals, for plain texts, other texts, large products and a price given twice', () => {
    const rfq = makeRfq([
      { ext: 'A', product: 'Bolt', qty: 10, est: '100' },
      { ext: 'B', product: 'Nut', qty: 3, est: '30' },
      { ext: 'C', product: 'Washer', qty: 2.5, est: '25' },
      { ext: 'D', product: 'Beam', qty: 900_000_000, est: '9000000000' },
    ]);
    const prices = {
      plain: { L1: '12.34', L2: '0.10', L3: '4.2', L4: '1234567.891' },
      other: { L1: '1.234e1', L2: '+0.1', L3: '0x4', L4: '1234567.8910' },
    };
    const model = buildComparison({
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [
        quote('7', 'Plain', prices.plain, { status: 'qualified' }),
        quote('8', 'Other', prices.other, { status: 'qualified' }),
        // L1 twice: the second price replaces the first, in the total too.
        {
          ...quote('9', 'Twice', { L1: '99.99', L2: '1.5' }, { status: 'qualified' }),
          detail: [
            { line_id: 'L1', price: '99.99', docs: [] },
            { line_id: 'L2', price: '1.5', docs: [] },
            { line_id: 'L1', price: '11.11', docs: [] },
          ],
        },
      ],
    });
    const qty = [10, 3, 2.5, 900_000_000];
    const expected = (texts: string[]) => {
      const totals = texts.map((t, i) => new Decimal(t).mul(qty[i]!));
      return { total: totals.reduce((a, b) => a.plus(b)).toFixed(), cells: totals.map((t) => t.toNumber()) };
    };
    const of = (name: string) => model.suppliers.find((s) => s.name === name)!;
    for (const [name, texts] of [
      ['Plain', Object.values(prices.plain)],
      ['Other', Object.values(prices.other)],
    ] as const) {
      const s = of(name);
      const want = expected([...texts]);
      expect(s.total.toFixed(), name).toBe(want.total);
      expect([...s.lineTotalValues], name).toEqual(want.cells);
      expect([...s.unitValues], name).toEqual(texts.map((t) => new Decimal(t).toNumber()));
    }
    const twice = of('Twice');
    expect(twice.total.toFixed()).toBe(expected(['11.11', '1.5']).total);
    expect(twice.quoted.slice(0, 2)).toEqual(['11.11', '1.5']);
    expect(model.notes.map((n) => n.text).join('\n')).toContain('more than one price; the last one is compared');
  });
});

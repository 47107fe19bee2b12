/** The plain amount fast path of line validation: the same line total as decimal.js' half-up rounding. */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { plainTotal } from '../../src/ingest/line-validation.ts';

/** The amounts the fast path takes: up to 15 digits, then the separator and up to 20 digits. */
const PLAIN = { '.': /^\d{1,15}(?:\.\d{1,20})?$/, ',': /^\d{1,15}(?:,\d{1,20})?$/ };

function digits(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.floor(rnd() * 10));
  return s;
}

describe('plainTotal', () => {
  it('rounds plain amounts half-up as decimal.js does, and says the exact value when rounding changed it', () => {
    let seed = 46;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 20_000; k++) {
      const dec = k % 2 ? '.' : ',';
      const int = (rnd() < 0.2 ? '0'.repeat(1 + Math.floor(rnd() * 3)) : '') + digits(rnd, 1 + Math.floor(rnd() * 16));
      const frac = rnd() < 0.3 ? '' : digits(rnd, Math.floor(rnd() * 22)) + (rnd() < 0.3 ? '000' : '');
      const text = frac === '' && rnd() < 0.5 ? int : `${int}${dec}${frac}`;
      const r = plainTotal(text, dec);
      if (!PLAIN[dec].test(text)) {
        expect(r, text).toBeUndefined();
        continue;
      }
      const exact = new Decimal(text.replace(',', '.'));
      expect(r, text).toEqual({
        rounded: exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber(),
        ...(exact.isInteger() ? {} : { exact: exact.toFixed() }),
      });
    }
  });

  it.each([
    ['12.5', '.', { rounded: 13, exact: '12.5' }],
    ['12.49', '.', { rounded: 12, exact: '12.49' }],
    ['0012.500', '.', { rounded: 13, exact: '12.5' }],
    ['0.05', '.', { rounded: 0, exact: '0.05' }],
    ['7,50', ',', { rounded: 8, exact: '7.5' }],
    ['7.00', '.', { rounded: 7 }],
    ['7', ',', { rounded: 7 }],
  ])('%s (decimal %s) -> %o', (text, dec, want) => expect(plainTotal(text, dec as '.' | ',')).toEqual(want));

  it.each([
    ['12.', '.'],
    ['.5', '.'],
    ['7,50', '.'],
    ['7.50', ','],
    ['1,000.50', '.'],
    ['-3', '.'],
    ['+3', '.'],
    [' 3', '.'],
    ['1e3', '.'],
    ['١٢', '.'],
    ['1234567890123456', '.'],
    [`1.${'1'.repeat(21)}`, '.'],
    ['', '.'],
  ])('leaves %s (decimal %s) to the full number reader', (text, dec) =>
    expect(plainTotal(text, dec as '.' | ',')).toBeUndefined(),
  );
});

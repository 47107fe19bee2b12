/**
 * Quoted prices in their plainest, commonest form (digits, optionally a point and more digits: `12.34`) read as an
 * integer count of their last decimal place (1234 at scale 2), and the exact sum of price x quantity products over
 * such counts. Stage 2 reads every quote (250,000 at 5,000 lines x 50 quotations) through here: through decimal.js
 * each quote took a parse, a product and a sum, ~1 KB of short-lived objects, and V8 sometimes pretenured the digit
 * arrays decimal.js makes (allocation-site pretenuring, triggered by the GC's timing): 100-160 MB more heap,
 * 440-490 MB peak RSS in a third of the runs of bench:comparison. Any other text (an exponent, a sign, hex, more
 * than 15 digits) and any quantity that is not a whole number go through decimal.js as before.
 *
 * Exact, not approximate: a count of at most 15 digits and its product with a whole quantity below 2^53 are exact
 * integers in a double (Number.isSafeInteger says so); sums are BigInts; a division of two exact integers by a
 * power of ten in a double is the double nearest the exact quotient, the same double decimal.js' toNumber() gives.
 */
import { Decimal } from 'decimal.js';

/** Powers of ten exact in a double (10^22 is the last). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_DIGITS = 15;

/** Reads plain decimal texts; one reader is reused for every quote (no object per text). */
export class PlainDecimal {
  /** The text's digits as an integer (1234 for 12.34). */
  units = 0;
  /** Digits after the point (2 for 12.34). */
  scale = 0;

  /** True when `text` is plain, with `units` and `scale` set; false for any other text. */
  read(text: string): boolean {
    let units = 0;
    let digits = 0;
    let point = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        units = units * 10 + (c - 48);
        digits++;
      } else if (c === 46 && point < 0 && i > 0 && i < text.length - 1) point = i;
      else return false;
    }
    if (digits === 0 || digits > MAX_DIGITS) return false;
    this.units = units;
    this.scale = point < 0 ? 0 : text.length - point - 1;
    return true;
  }

  /** The double nearest the text's value (what Number(text) and decimal.js' toNumber() give). */
  double(): number {
    return this.units / POW10[this.scale]!;
  }
}

/** An exact sum of products units x 10^-scale x qty, kept as one BigInt per scale. */
export class ExactSum {
  private readonly byScale: bigint[] = [];

  /**
   * Adds (sign 1) or takes away (sign -1) the read text times `qty` and returns the product's double; NaN, adding
   * nothing, when the product is not a safe integer count (a quantity with decimals, or too large): decimal.js then.
   */
  addProduct(text: PlainDecimal, qty: number, sign: 1 | -1 = 1): number {
    // A whole quantity only: units x 2.5 can round to a whole number that is not the decimal product.
    const product = Number.isSafeInteger(qty) ? text.units * qty : Number.NaN;
    if (!Number.isSafeInteger(product)) return Number.NaN;
    this.byScale[text.scale] = (this.byScale[text.scale] ?? 0n) + BigInt(sign * product);
    return product / POW10[text.scale]!;
  }

  /** The sum as a Decimal, `plus` whatever was summed through decimal.js. */
  total(plus: Decimal): Decimal {
    let total = plus;
    this.byScale.forEach((sum, scale) => {
      if (sum !== 0n) total = total.plus(new Decimal(`${sum}e-${scale}`));
    });
    return total;
  }
}

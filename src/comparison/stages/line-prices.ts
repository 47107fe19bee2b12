/**
 * The quoted prices of one line, for its ranks and statistics (stage 4): compared by their doubles (stage 2 made
 * them), exactly only where two doubles are equal, and summed exactly as integers where the texts are plain
 * (plain-decimal.ts); decimal.js parses a price only where exactness needs it. Parsing every quote again, as stage 4
 * did, took 250,000 parses and sums at 5,000 lines x 50 quotations, and copied both values of each comparison.
 * One instance serves every line of a comparison (`at` moves it on).
 */
import { Decimal } from 'decimal.js';
import { ExactSum, PlainDecimal } from './plain-decimal.ts';
import type { PriceBasis, SupplierSummary } from '../types.ts';

export class LinePrices {
  private li = 0;
  private readonly exactOf: Array<Decimal | undefined>;
  private readonly plain = new PlainDecimal();
  private readonly suppliers: SupplierSummary[];
  private readonly basis: PriceBasis;

  constructor(suppliers: SupplierSummary[], basis: PriceBasis) {
    this.suppliers = suppliers;
    this.basis = basis;
    this.exactOf = new Array<Decimal | undefined>(suppliers.length).fill(undefined);
  }

  /** Moves to line `li`. */
  at(li: number): void {
    this.li = li;
    this.exactOf.fill(undefined);
  }

  /** Supplier `si`'s quoted price (a unit price or a line total, per the basis) as text; null when not quoted. */
  text(si: number): string | null {
    return this.suppliers[si]!.quoted[this.li] ?? null;
  }

  /** The quoted price, exactly (parsed once per line). */
  exact(si: number): Decimal {
    return (this.exactOf[si] ??= new Decimal(this.text(si)!));
  }

  /**
   * Order of two quoted prices. Two prices whose doubles differ are in that order exactly (the nearest double never
   * reverses an order); equal doubles are compared exactly.
   */
  compare(a: number, b: number): number {
    const s = this.suppliers;
    const values = this.basis === 'unit' ? 'unitValues' : 'lineTotalValues';
    const byDouble = s[a]![values][this.li]! - s[b]![values][this.li]!;
    return byDouble < 0 ? -1 : byDouble > 0 ? 1 : this.exact(a).cmp(this.exact(b));
  }

  /** The exact sum of the quoted prices of `sis`. */
  sum(sis: readonly number[]): Decimal {
    const exact = new ExactSum();
    let others = new Decimal(0);
    for (const si of sis) {
      const text = this.text(si)!;
      if (!this.plain.read(text) || Number.isNaN(exact.addProduct(this.plain, 1))) others = others.add(this.exact(si));
    }
    return exact.total(others);
  }
}

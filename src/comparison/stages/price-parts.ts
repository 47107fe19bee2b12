/**
 * A quoted price as exact decimals: its unit price and line total per the price basis, and the parsing of the
 * service's decimal strings. Every stage of the comparison reads prices through here.
 */
import { Decimal } from 'decimal.js';
import type { PriceBasis } from '../types.ts';

/** Decimals kept of a unit price derived from a line total that does not divide evenly (100 / 3 = 33.333333). */
export const DERIVED_UNIT_PLACES = 6;

/**
 * Unit price and line total of one quoted price, exactly, per the basis. A unit price derived from a line total is
 * exact when the division ends, otherwise rounded half-up to DERIVED_UNIT_PLACES; the quoted line total stays exact.
 */
export function priceParts(
  basis: PriceBasis,
  quoted: Decimal,
  qty: number | undefined,
): { unit?: Decimal; total?: Decimal } {
  if (basis === 'unit') return { unit: quoted, ...(qty !== undefined ? { total: quoted.mul(qty) } : {}) };
  if (qty === undefined || qty === 0) return { total: quoted };
  const unit = quoted.div(qty);
  return {
    unit:
      unit.decimalPlaces() > DERIVED_UNIT_PLACES
        ? unit.toDecimalPlaces(DERIVED_UNIT_PLACES, Decimal.ROUND_HALF_UP)
        : unit,
    total: quoted,
  };
}

/** A per-line statistic of quoted prices as a unit price. */
export function asUnit(basis: PriceBasis, quoted: Decimal, qty: number | undefined): Decimal | undefined {
  return priceParts(basis, quoted, qty).unit;
}

/** A finite decimal from the service's text; undefined when empty or not a number. */
export function parseDecimal(text: string | undefined | null): Decimal | undefined {
  if (text === undefined || text === null) return undefined;
  const t = String(text).trim();
  if (t === '') return undefined;
  try {
    const d = new Decimal(t);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The display double of `value`, parsed from `text`: what value.toNumber() returns (the double nearest the exact
 * value), at a fraction of its cost. Number() reads decimal texts as decimal.js does; the hex, octal and binary
 * fractions decimal.js also reads are NaN to it, and go through decimal.js.
 */
export function toDouble(text: string, value: Decimal): number {
  const v = Number(text);
  return Number.isNaN(v) ? value.toNumber() : v;
}

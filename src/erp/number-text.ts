/**
 * Numbers as an ERP's file wants them, exact (decimal.js, never a float's rounding): money keeps every decimal it has
 * and at least two (1099 -> 1099.00, 0.125 stays 0.125, as the award file writes it), or is rounded half-up to a
 * column's `decimals`; quantities and counts are whole. The decimal and thousands separators are the profile's
 * (`1.234,56` for a German SAP upload).
 */
import { Decimal } from 'decimal.js';
import type { FieldKind } from './vocabulary.ts';

export interface NumberStyle {
  decimal: '.' | ',';
  thousands: '' | ',' | '.' | ' ' | "'";
}

/** The value as written: rounded half-up to a column's `decimals`, else exact. */
export function roundedFor(value: Decimal, decimals: number | undefined): Decimal {
  return decimals !== undefined ? value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP) : value;
}

/** `value` in the file's style: `decimals` fixed when given, else money with at least two. */
export function numberText(value: Decimal, kind: FieldKind, decimals: number | undefined, style: NumberStyle): string {
  const v = roundedFor(value, decimals);
  const plain =
    decimals !== undefined
      ? v.toFixed(decimals)
      : kind === 'money' && v.decimalPlaces() < 2
        ? v.toFixed(2)
        : v.toFixed();
  const negative = plain.startsWith('-');
  const [int, frac] = (negative ? plain.slice(1) : plain).split('.') as [string, string | undefined];
  const grouped = style.thousands ? int.replace(/\B(?=(\d{3})+(?!\d))/g, style.thousands) : int;
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `${style.decimal}${frac}` : ''}`;
}

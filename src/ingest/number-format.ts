/**
 * Numbers as ERP exports write them: decimal comma or point, thousands separators (`.` `,` space, NBSP, `'`),
 * currency symbols or codes around the number, SAP's trailing minus (`100-`) and accounting parentheses.
 * Parsed into decimal.js, never a binary float, so money stays exact until the one rounding we do on purpose.
 */
import { Decimal } from 'decimal.js';

export interface NumberFormat {
  /** Decimal separator: `.` (default) or `,`. */
  decimal: '.' | ',';
  /** Thousands separator accepted in the text; `auto` = the other of `.`/`,` plus spaces and `'`. */
  thousands: 'auto' | '.' | ',' | ' ' | "'" | 'none';
}

export const DEFAULT_NUMBER_FORMAT: NumberFormat = { decimal: '.', thousands: 'auto' };

export type NumberResult = { ok: true; value: Decimal } | { ok: false; reason: string };

// Currency symbols and ISO codes an export may glue to an amount; stripped, never interpreted.
const CURRENCY = /^(?:[A-Z]{3}|[$€£¥₹₽₩₺¤]|US\$|CHF|Fr\.?)\s*|\s*(?:[A-Z]{3}|[$€£¥₹₽₩₺¤]|CHF|Fr\.?)$/u;

const PLAIN_POINT = /^\d{1,15}(?:\.\d{1,15})?$/;
const PLAIN_COMMA = /^\d{1,15}(?:,\d{1,15})?$/;

/** Parse one cell. Excel numeric cells arrive as `number` and are taken as they are (shortest round-trip text). */
export function parseNumber(input: string | number, fmt: NumberFormat = DEFAULT_NUMBER_FORMAT): NumberResult {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'is not a number' };
    return { ok: true, value: new Decimal(input) };
  }
  // Fast path for the common plain forms ("12", "12.50" / "12,50"): no currency, sign or grouping to untangle.
  if ((fmt.decimal === '.' ? PLAIN_POINT : PLAIN_COMMA).test(input)) {
    return { ok: true, value: new Decimal(fmt.decimal === '.' ? input : input.replace(',', '.')) };
  }
  let s = input.replace(/[\u00A0\u202F]/g, ' ').trim();
  if (s === '') return { ok: false, reason: 'is empty' };
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  // Strip currency on either side (possibly twice: "EUR 1.234,50 €" is rare but harmless).
  for (let i = 0; i < 2; i++) s = s.replace(CURRENCY, '').trim();
  if (s.endsWith('-') && !s.startsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1).trim();
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (s.startsWith('+')) {
    s = s.slice(1).trim();
  }
  const dec = fmt.decimal;
  const other = dec === '.' ? ',' : '.';
  const seps = fmt.thousands === 'none' ? [] : fmt.thousands === 'auto' ? [other, ' ', "'"] : [fmt.thousands];
  if (seps.includes(dec)) return { ok: false, reason: 'number format names the same decimal and thousands separator' };
  const [intPart, fracPart, extra] = s.split(dec);
  if (extra !== undefined || intPart === undefined)
    return { ok: false, reason: `is not a number (more than one "${dec}")` };
  let digits = intPart;
  if (seps.length > 0 && /[^0-9]/.test(intPart)) {
    // Thousands separators must sit between groups of three digits: "1.234.567" yes, "1.23" no.
    const sepClass = seps.map((c) => (c === ' ' ? ' ' : `\\${c}`)).join('');
    const grouped = new RegExp(`^\\d{1,3}(?:[${sepClass}]\\d{3})+$`);
    if (!grouped.test(intPart)) return { ok: false, reason: notNumber(dec) };
    digits = intPart.replace(/[^0-9]/g, '');
  }
  if (!/^\d+$/.test(digits) && !(digits === '' && fracPart !== undefined)) return { ok: false, reason: notNumber(dec) };
  if (fracPart !== undefined && !/^\d+$/.test(fracPart)) return { ok: false, reason: notNumber(dec) };
  const text = `${negative ? '-' : ''}${digits || '0'}${fracPart !== undefined ? `.${fracPart}` : ''}`;
  return { ok: true, value: new Decimal(text) };
}

function notNumber(dec: string): string {
  return `is not a number (expected digits with "${dec}" as decimal separator)`;
}

/** Round half-up (away from zero for .5) to an integer, as the service takes money and quantities. */
export function roundHalfUp(d: Decimal): Decimal {
  return d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

/**
 * The number style of an export, read from its values: which of `.` and `,` is the decimal separator, which one
 * groups thousands, which currency marks surround amounts. A value decides when it can be read one way only
 * ("1.234,50", "12,35", "1,234,567"); "1,000" alone cannot ("one thousand" or "one"), and is never guessed silently.
 */
import type { NumberFormat } from '../number-format.ts';

export interface NumberStyle {
  format: NumberFormat;
  /** Values that decided for each decimal separator, with one example each. */
  votes: { '.': number; ',': number };
  examples: { '.'?: string; ','?: string; ambiguous?: string };
  /** Values readable both ways (one separator followed by exactly three digits). */
  ambiguous: number;
  currencyMarks: string[];
  /** Set when the values do not settle the decimal separator (or contradict each other). */
  review?: string;
  confidence: 'high' | 'medium' | 'low';
  /** Number cells a workbook stores as numbers: no separator is read in them. */
  typed?: number;
}

const CURRENCY = /^(?:[A-Z]{3}|[$€£¥₹₽₩₺¤]|US\$|CHF|Fr\.?)\s*|\s*(?:[A-Z]{3}|[$€£¥₹₽₩₺¤]|CHF|Fr\.?)$/u;

/** The ISO 4217 codes (as the runtime's ICU knows them): a three-letter mark that is none (MAT-4711) is no currency. */
export const ISO_4217: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** The digits-and-separators core of a number-like text, its currency marks; undefined when it is not one. */
export function numberCore(text: string): { core: string; marks: string[] } | undefined {
  let s = text.replace(/[\u00A0\u202F]/g, ' ').trim();
  if (s === '') return undefined;
  const marks: string[] = [];
  if (/^\(.*\)$/.test(s)) s = s.slice(1, -1).trim();
  for (let i = 0; i < 2; i++) {
    const m = CURRENCY.exec(s);
    if (m) {
      const mark = m[0].trim();
      if (/^[A-Z]{3}$/.test(mark) && !ISO_4217.has(mark)) return undefined; // a material number, not an amount
      marks.push(mark);
      s = s.replace(CURRENCY, '').trim();
    }
  }
  s = s.replace(/^[-+]\s*/, '').replace(/\s*-$/, '');
  if (!/^\d[\d.,' ]*$/.test(s) && !/^[.,]\d+$/.test(s)) return undefined;
  if (!/\d$/.test(s)) return undefined;
  return { core: s, marks };
}

/** A text that starts like a date (2027-04-12, 12.04.2027, 4/12/27): neither a number nor a name. */
export const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}/;

type Reading = '.' | ',' | 'ambiguous' | 'none' | 'invalid';

/** What one number-like core says about the decimal separator. */
export function readSeparators(core: string): Reading {
  const dots = core.split('.').length - 1;
  const commas = core.split(',').length - 1;
  const groupsOk = (intPart: string, sep: string): boolean =>
    new RegExp(`^\\d{1,3}(?:[${sep === '.' ? '\\.' : sep}' ]\\d{3})*$`).test(intPart);
  if (dots > 0 && commas > 0) {
    const last = core.lastIndexOf('.') > core.lastIndexOf(',') ? '.' : ',';
    const other = last === '.' ? ',' : '.';
    const [intPart, frac, extra] = core.split(last);
    if (extra !== undefined || frac === undefined || !groupsOk(intPart!, other)) return 'invalid';
    return last;
  }
  if (dots === 0 && commas === 0)
    return /^\d{1,3}(?:[' ]\d{3})+$/.test(core) || /^\d+$/.test(core) ? 'none' : 'invalid';
  const sep = dots > 0 ? '.' : ',';
  const other = sep === '.' ? ',' : '.';
  const n = dots + commas;
  if (n > 1) return groupsOk(core, sep) ? other : 'invalid';
  const [intPart, frac] = core.split(sep) as [string, string];
  if (frac.length !== 3) return /^\d*$/.test(intPart.replace(/[' ]/g, '')) ? sep : 'invalid';
  // "0,500" or ",500": a thousands group never follows a lone zero.
  if (intPart === '' || intPart === '0') return sep;
  if (!/^\d{1,3}$/.test(intPart)) return /^\d+$/.test(intPart) ? sep : 'invalid';
  return 'ambiguous';
}

/**
 * Decide the style from number-like texts. `hint` is the separator the layout suggests when values cannot decide
 * (a `;`-delimited file or German headers: `,`); it is then taken with a review point, never silently.
 */
export function inferNumberStyle(texts: Iterable<string>, hint: '.' | ','): NumberStyle {
  const votes = { '.': 0, ',': 0 };
  const examples: NumberStyle['examples'] = {};
  let ambiguous = 0;
  let space = false;
  let apostrophe = false;
  const marks = new Set<string>();
  for (const t of texts) {
    const c = numberCore(t);
    if (!c) continue;
    for (const m of c.marks) marks.add(m);
    if (c.core.includes(' ')) space = true;
    if (c.core.includes("'")) apostrophe = true;
    const r = readSeparators(c.core);
    if (r === '.' || r === ',') {
      votes[r]++;
      examples[r] ??= t.trim();
    } else if (r === 'ambiguous') {
      ambiguous++;
      examples.ambiguous ??= t.trim();
    }
  }
  const currencyMarks = [...marks];
  const style = (format: NumberFormat, confidence: NumberStyle['confidence'], review?: string): NumberStyle => ({
    format,
    votes,
    examples,
    ambiguous,
    currencyMarks,
    confidence,
    ...(review === undefined ? {} : { review }),
  });
  const grouping = (dec: '.' | ','): NumberFormat['thousands'] =>
    space ? ' ' : apostrophe ? "'" : dec === '.' ? ',' : '.';
  if (votes['.'] > 0 && votes[','] > 0) {
    const dec = votes['.'] >= votes[','] ? '.' : ',';
    const other = dec === '.' ? ',' : '.';
    return style(
      { decimal: dec, thousands: 'auto' },
      'low',
      `values disagree on the decimal separator: ${votes[dec]} read with "${dec}" (e.g. "${examples[dec]}"), ${votes[other]} with "${other}" (e.g. "${examples[other]}"); "${dec}" taken (the majority)`,
    );
  }
  const decided = votes['.'] > 0 ? '.' : votes[','] > 0 ? ',' : undefined;
  if (decided) return style({ decimal: decided, thousands: grouping(decided) }, 'high');
  if (ambiguous > 0)
    return style(
      { decimal: hint, thousands: 'auto' },
      'low',
      `decimal comma or thousands separator? ${ambiguous} value(s) like "${examples.ambiguous}" read either way and none decides; "${hint}" taken as the decimal separator from the layout (thousands: auto, so ingestion warns on each such value)`,
    );
  return style({ decimal: hint, thousands: 'auto' }, 'medium');
}

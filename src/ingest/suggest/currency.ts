/**
 * The currency of `check --suggest`, only ever an ISO 4217 code (never "MAT" read off MAT-4711): a column of ISO 4217
 * codes becomes `currency: "{Column}"` (read per requisition,
 * so an export of several legal entities keeps each one's currency); else the one currency the amounts are marked
 * with (`$1,260.00`, `1.234,50 €`) or the headers name (`Price each (EUR)`) becomes `currency: EUR`. Without either
 * the profile names none (REQUISITION_CURRENCY, or none at all, applies).
 */
import { quoted as q, ref, scoreOf, type Column, type ColumnPool } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';
import { ISO_4217, type NumberStyle } from './numbers.ts';
import { reviewRivals } from './rivals.ts';

/** Codes an export writes in a currency column (the common ones: an unnamed column of these is a currency column). */
const COMMON = new Set(
  'USD EUR GBP CHF JPY CNY CAD AUD NZD SEK NOK DKK PLN CZK HUF RON BGN INR BRL MXN ZAR SGD HKD TRY KRW ILS AED SAR THB MYR IDR PHP'.split(
    ' ',
  ),
);

/** Currency marks an amount may carry, as ISO codes (`$` is taken for USD, `¥` for JPY: said in the evidence). */
const MARKS: Record<string, string> = {
  '€': 'EUR',
  $: 'USD',
  US$: 'USD',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₺': 'TRY',
  CHF: 'CHF',
  Fr: 'CHF',
  'Fr.': 'CHF',
};

/** The profile's `currency` (a code or a column template), or undefined. */
export function pickCurrency(pool: ColumnPool, notes: SuggestNotes, style: NumberStyle): string | undefined {
  const codes = (c: Column) => [...new Set(c.texts.filter(Boolean).map((t) => t.toUpperCase()))];
  // ISO 4217 codes only: a column of other three-letter codes (units, plants, MAT) is never a currency
  const isCodes = (c: Column) =>
    !c.numbers && !c.dates && c.nonEmpty >= pool.n * 0.9 && codes(c).every((t) => ISO_4217.has(t));
  const namedCodes = pool.best('currency', isCodes);
  if (namedCodes[0]) reviewRivals(notes, 'currency', namedCodes[0], namedCodes, 'currency');
  const column =
    namedCodes[0] ?? pool.columns.find((c) => pool.free(c) && isCodes(c) && codes(c).every((t) => COMMON.has(t)));
  if (column) {
    pool.use(column);
    const named = scoreOf(column, 'currency') >= 2;
    notes.say(
      'currency',
      ref(column),
      named ? 'high' : 'medium',
      `${q(column)} ${named ? 'is named like a currency and ' : ''}holds ISO codes (${codes(column).join(', ')}): each requisition takes its first row's`,
    );
    return ref(column);
  }
  const fromMarks = [...new Set(style.currencyMarks.map((m) => MARKS[m] ?? (ISO_4217.has(m) ? m : '?')))];
  const fromHeaders = [
    ...new Set(
      pool.columns.flatMap((c) => {
        const m = /[([]\s*([A-Z]{3}|[€$£¥])\s*[)\]]|\bin ([A-Z]{3})\b/.exec(c.header);
        const code = m && (m[1] ?? m[2]!);
        const iso = code ? (MARKS[code] ?? code) : undefined;
        return iso && ISO_4217.has(iso) ? [iso] : [];
      }),
    ),
  ];
  const found = fromMarks.length > 0 ? fromMarks : fromHeaders;
  const where = fromMarks.length > 0 ? `amounts are marked ${style.currencyMarks.join(', ')}` : 'the headers name it';
  if (found.length === 1 && found[0] !== '?') {
    notes.say('currency', found[0]!, 'medium', `no currency column; ${where}`);
    return found[0];
  }
  if (found.length > 0)
    notes.review(
      'currency',
      `${where} (${style.currencyMarks.join(', ') || found.join(', ')}), which is not one known currency, and no column holds currency codes: the profile names none (REQUISITION_CURRENCY applies); write currency: and the ISO code`,
    );
  return undefined;
}

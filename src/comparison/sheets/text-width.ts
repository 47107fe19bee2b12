/**
 * How wide a value prints, in Excel's column-width units (the width of a digit of the workbook's font, Calibri 11),
 * as it is formatted (number format: thousands separators, decimals, the currency after the amount) and styled
 * (bold, size). Pure: the comparison sheets size their columns with it, and the tests read every numeric cell back
 * against its column with it.
 *
 * The advances are Calibri's (Carlito, which LibreOffice uses in its place, has the same metrics), in em.
 */

/** Calibri's advance widths in em: digits are tabular, punctuation narrow, capitals wider than small letters. */
const ADVANCE: Record<string, number> = {
  ' ': 0.226,
  ',': 0.25,
  '.': 0.252,
  '-': 0.306,
  '+': 0.498,
  '%': 0.715,
  '(': 0.303,
  ')': 0.303,
  ':': 0.268,
  '/': 0.386,
  '·': 0.252,
  '×': 0.498,
  '"': 0.401,
  a: 0.478,
  b: 0.525,
  c: 0.423,
  d: 0.525,
  e: 0.498,
  f: 0.305,
  g: 0.471,
  h: 0.525,
  i: 0.229,
  j: 0.239,
  k: 0.455,
  l: 0.229,
  m: 0.799,
  n: 0.525,
  o: 0.527,
  p: 0.525,
  q: 0.525,
  r: 0.349,
  s: 0.391,
  t: 0.335,
  u: 0.525,
  v: 0.452,
  w: 0.715,
  x: 0.433,
  y: 0.453,
  z: 0.395,
  A: 0.579,
  B: 0.544,
  C: 0.533,
  D: 0.615,
  E: 0.488,
  F: 0.459,
  G: 0.631,
  H: 0.623,
  I: 0.252,
  J: 0.319,
  K: 0.52,
  L: 0.42,
  M: 0.855,
  N: 0.646,
  O: 0.662,
  P: 0.517,
  Q: 0.673,
  R: 0.543,
  S: 0.459,
  T: 0.487,
  U: 0.642,
  V: 0.567,
  W: 0.89,
  X: 0.519,
  Y: 0.487,
  Z: 0.468,
};
const DIGIT = 0.507;
/** Letters not in the table (accented, other scripts): as wide as an average small or capital letter. */
const LOWER = 0.5;
const UPPER = 0.6;
const OTHER = 0.6;
/** Bold Calibri: digits keep their width (tabular), letters run about 4 % wider. */
const BOLD_LETTERS = 1.04;

/** Pixels of a digit of Calibri 11 at 96 dpi: what one unit of column width is. */
const DIGIT_PX = 7;
/** A cell's text keeps a few pixels of padding in Excel and LibreOffice; a little more is kept in reserve. */
const PADDING_PX = 7;
/** LibreOffice and Excel round glyph advances differently: 6 % kept in reserve. */
const RESERVE = 1.06;

export interface FontSpec {
  bold?: boolean;
  /** Points, default 11. */
  size?: number;
}

/** Em width of `text` in Calibri. */
export function emWidth(text: string, bold = false): number {
  let em = 0;
  for (const ch of text) {
    let w = ADVANCE[ch];
    if (w === undefined) {
      if (ch >= '0' && ch <= '9') {
        em += DIGIT;
        continue;
      }
      // accented letters (ü, é) are as wide as their base letters
      const base = ch.normalize('NFD')[0]!;
      w = ADVANCE[base] ?? (/\p{Ll}/u.test(ch) ? LOWER : /\p{Lu}/u.test(ch) ? UPPER : OTHER);
    }
    em += bold ? w * BOLD_LETTERS : w;
  }
  return em;
}

/** Column width (Excel units) that shows `text` whole in the given font. */
export function columnWidthFor(text: string, font: FontSpec = {}): number {
  if (!text) return 0;
  const px = emWidth(text, font.bold) * (((font.size ?? 11) * 96) / 72) * RESERVE + PADDING_PX;
  return Math.ceil((px / DIGIT_PX) * 10) / 10;
}

/** Group digits by thousands: 8203437 -> 8,203,437. */
function grouped(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `value` as the number formats of the comparison workbook show it (styles.ts `formats`): `#,##0.00`, `#,##0.00##`
 * (up to two further decimals), `#,##0`, `0`, `0%`, `0.0%`, `+0.0%;-0.0%;0.0%`, each with an optional quoted
 * suffix (` "EUR"`). Other formats fall back to the number as JavaScript writes it.
 */
export function formatNumber(value: number, numFmt: string): string {
  const section = numFmt.split(';')[value < 0 && numFmt.includes(';') ? 1 : 0]!;
  const suffix = /"([^"]*)"\s*$/.exec(section);
  const body = section.replace(/\s*"[^"]*"\s*$/, '');
  const pct = body.endsWith('%');
  const core = body.replace(/%$/, '');
  const sign = core.startsWith('+') ? (value > 0 ? '+' : '') : '';
  const digits = core.replace(/^[+-]/, '');
  const m = /^(#,##)?0(?:\.(0*)(#*))?$/.exec(digits);
  if (!m) return `${String(value)}${suffix ? ` ${suffix[1]}` : ''}`;
  const min = m[2]?.length ?? 0;
  const max = min + (m[3]?.length ?? 0);
  const v = pct ? value * 100 : value;
  const explicitMinus = numFmt.includes(';') && value < 0 ? '-' : '';
  let text = Math.abs(v).toFixed(max);
  if (max > min) text = text.replace(new RegExp(`0{0,${max - min}}$`), '').replace(/\.$/, min === 0 ? '' : '.');
  const [int, frac] = text.split('.') as [string, string | undefined];
  const shown = `${m[1] ? grouped(int) : int}${frac !== undefined && frac !== '' ? `.${frac}` : ''}`;
  const neg = v < 0 && Number(shown.replace(/,/g, '')) !== 0 ? (explicitMinus ? '' : '-') : '';
  return `${sign}${neg}${explicitMinus}${shown}${pct ? '%' : ''}${suffix ? ` ${suffix[1]}` : ''}`;
}

/** Column width that shows `value` formatted with `numFmt` in `font`. */
export function numberWidth(value: number, numFmt: string, font: FontSpec = {}): number {
  return columnWidthFor(formatNumber(value, numFmt), font);
}

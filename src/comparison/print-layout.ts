/**
 * How the Comparison sheet prints. Fitting every column on one page wide printed a 3-supplier RFQ at about 5 pt, so
 * instead: A4 landscape at a scale of at least MIN_PRINT_SCALE, the line columns (External ID, Product) repeated on
 * every page, the lines, their statistics and the supplier groups as whole blocks, as many per page as fit, with a
 * manual page break between blocks so none is cut in two.
 */

export const MIN_PRINT_SCALE = 70;

/** A4 landscape (842 pt wide) less the sheet's 0.3 in left and right margins. */
const PRINTABLE_PT = 842 - 2 * 0.3 * 72;

/**
 * A column `width` characters wide prints as (width x 7 + 5) px of the default font at 96 dpi, 0.75 pt per px. Excel
 * and LibreOffice (with other fonts than Calibri) measure differently; the 10 % kept in reserve covers that.
 */
const columnPt = (width: number): number => Math.trunc(width * 7 + 5) * 0.75;
const RESERVE = 0.9;

export interface PrintLayout {
  /** Percent, MIN_PRINT_SCALE..100. */
  scale: number;
  /** Columns repeated at the left of every page, as Excel's print titles ("A:B"). */
  repeatColumns: string;
  /** 1-based numbers of the last column of each page but the last: a manual page break follows each. */
  breaksAfter: number[];
}

/**
 * `widths`: every column's width in characters, in order. `blockStarts`: the first column of each block that must not
 * be cut by a page break (the line columns, the line statistics, each supplier group), ascending, the first being 1.
 * Pages after the first repeat columns A:B, so each later page holds A:B and whole blocks.
 */
export function printLayout(widths: readonly number[], blockStarts: readonly number[]): PrintLayout {
  const pt = widths.map(columnPt);
  const sum = (from: number, to: number): number => pt.slice(from - 1, to).reduce((a, b) => a + b, 0);
  const repeat = sum(1, 2);
  const blocks = blockStarts
    .filter((c) => c <= widths.length)
    .map((from, i, all) => ({ from, to: Math.min(widths.length, (all[i + 1] ?? widths.length + 1) - 1) }))
    .map((b, i) => ({ ...b, width: sum(b.from, b.to) + (i === 0 ? 0 : repeat) }));
  // The largest scale at which every block, with the repeated columns, fits one page.
  const widest = Math.max(0, ...blocks.map((b) => b.width));
  const scale = Math.max(MIN_PRINT_SCALE, Math.min(100, Math.floor((100 * PRINTABLE_PT * RESERVE) / widest)));
  const page = (PRINTABLE_PT * RESERVE * 100) / scale;
  const breaksAfter: number[] = [];
  let used = 0;
  blocks.forEach((b, i) => {
    const own = b.width - (i === 0 ? 0 : repeat);
    if (i > 0 && used + own > page) {
      breaksAfter.push(b.from - 1);
      used = repeat;
    }
    used += own;
  });
  return { scale, repeatColumns: 'A:B', breaksAfter };
}

/** The <colBreaks> element for `breaksAfter` (a break's id is the 0-based index of the column after it). */
export function colBreaksXml(breaksAfter: readonly number[]): string {
  if (breaksAfter.length === 0) return '';
  const brks = breaksAfter.map((c) => `<brk id="${c}" max="1048575" man="1"/>`).join('');
  return `<colBreaks count="${breaksAfter.length}" manualBreakCount="${breaksAfter.length}">${brks}</colBreaks>`;
}

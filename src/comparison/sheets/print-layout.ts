/**
 * How the Comparison sheet prints, by size.
 *
 * - Short (up to ONE_PAGE_LINES lines and ONE_PAGE_QUOTATIONS quotations): one landscape page, fitted to width
 *   (`fitToPage` with one page wide and one tall). When every column does not fit at MIN_PRINT_SCALE (text at
 *   MIN_PRINTED_PT), the detail columns are folded (hidden in a collapsed outline group, a click on its `+` shows
 *   them), the least needed first, until it does or none is left to fold: the page then prints smaller (`scale`
 *   says how small; a 25-line, 5-quotation RFQ does not reach 7 pt).
 * - Longer or wider: blocks of lines (rows flow onto further pages) and blocks of suppliers, at the largest scale
 *   from MIN_PRINT_SCALE to 100 % at which each block fits a page; manual column breaks fall between blocks only,
 *   and every page repeats the line columns and the supplier header rows.
 *
 * Every page is numbered "page x of y" with the RFQ in the footer (comparison/comparison-sheet.ts).
 */

/** Paper sizes: OOXML paperSize codes and the page's width and height in points (portrait). */
export const PAPER = {
  a4: { code: 9, width: 595, height: 842 },
  letter: { code: 1, width: 612, height: 792 },
} as const;
export type Paper = keyof typeof PAPER;

export const ONE_PAGE_LINES = 25;
export const ONE_PAGE_QUOTATIONS = 5;
/** No text prints smaller than this (points). */
export const MIN_PRINTED_PT = 7;
/** The smallest font of the Comparison sheet (the legend, supplier notes and keys), points. */
export const SMALLEST_FONT_PT = 10;
/** The smallest scale (percent) at which SMALLEST_FONT_PT prints at MIN_PRINTED_PT or more. */
export const MIN_PRINT_SCALE = Math.ceil((100 * MIN_PRINTED_PT) / SMALLEST_FONT_PT);

/** Margins of the Comparison sheet, inches. */
export const MARGINS = { left: 0.25, right: 0.25, top: 0.4, bottom: 0.5, header: 0.2, footer: 0.25 } as const;

/**
 * A column `width` characters wide prints as (width x 7 + 5) px of the default font at 96 dpi, 0.75 pt per px. Excel
 * and LibreOffice measure slightly differently; the 4 % kept in reserve covers that.
 */
export const columnPt = (width: number): number => Math.trunc(width * 7 + 5) * 0.75;
const RESERVE = 0.96;

/** Printable width and height of a landscape page, points, after margins. */
export function printableLandscape(paper: Paper): { width: number; height: number } {
  const p = PAPER[paper];
  return {
    width: (p.height - (MARGINS.left + MARGINS.right) * 72) * RESERVE,
    height: (p.width - (MARGINS.top + MARGINS.bottom + 0.15) * 72) * RESERVE,
  };
}

export interface PrintColumn {
  width: number;
  /** 0: always printed; n > 0: folded for a one-page print, the highest numbers first. */
  fold: number;
}

export interface PrintLayout {
  mode: 'one-page' | 'blocks';
  paper: Paper;
  /** Percent: the scale the sheet prints at (for `one-page`, the smallest a fitting print uses). */
  scale: number;
  /** 1-based column numbers folded (hidden in a collapsed outline group). */
  folded: number[];
  /** Columns repeated at the left of every page, as Excel's print titles ("A:B"); none on one page. */
  repeatColumns?: string;
  /** 1-based numbers of the last column of each page but the last: a manual page break follows each. */
  breaksAfter: number[];
}

export interface PrintInput {
  columns: readonly PrintColumn[];
  /** The first column of each block a page break must not cut (line columns, statistics, each supplier group). */
  blockStarts: readonly number[];
  lines: number;
  quotations: number;
  /**
   * Height in points of every row printed (header block, lines, award summary, sign-off), or of every row with the
   * given columns folded (text in a folded column wraps no line).
   */
  rowsHeightPt: number | ((folded: ReadonlySet<number>) => number);
  paper: Paper;
}

/** The one-page scale (percent) of a sheet `widthPt` wide and `heightPt` tall: fitted to width, and to height. */
export function fitScale(widthPt: number, heightPt: number, paper: Paper): number {
  const page = printableLandscape(paper);
  return Math.min(100, Math.floor(Math.min((100 * page.width) / widthPt, (100 * page.height) / heightPt)));
}

export function printLayout(input: PrintInput): PrintLayout {
  const { columns, paper } = input;
  if (input.lines <= ONE_PAGE_LINES && input.quotations <= ONE_PAGE_QUOTATIONS) {
    const folded = new Set<number>();
    const shownPt = (): number => columns.reduce((a, c, i) => a + (folded.has(i + 1) ? 0 : columnPt(c.width)), 0);
    const levels = [...new Set(columns.map((c) => c.fold).filter((f) => f > 0))].sort((a, b) => b - a);
    const height = (): number =>
      typeof input.rowsHeightPt === 'number' ? input.rowsHeightPt : input.rowsHeightPt(folded);
    let scale = fitScale(shownPt(), height(), paper);
    for (const level of levels) {
      if (scale >= MIN_PRINT_SCALE) break;
      columns.forEach((c, i) => c.fold === level && folded.add(i + 1));
      scale = fitScale(shownPt(), height(), paper);
    }
    return { mode: 'one-page', paper, scale, folded: [...folded].sort((a, b) => a - b), breaksAfter: [] };
  }
  return blocksLayout(input);
}

/**
 * Blocks: the largest scale from MIN_PRINT_SCALE to 100 % at which every block, with the repeated columns A:B, fits
 * one page wide; breaks between blocks, as many blocks per page as fit.
 */
function blocksLayout({ columns, blockStarts, paper }: PrintInput): PrintLayout {
  const pt = columns.map((c) => columnPt(c.width));
  const sum = (from: number, to: number): number => pt.slice(from - 1, to).reduce((a, b) => a + b, 0);
  const repeat = sum(1, 2);
  const blocks = blockStarts
    .filter((c) => c <= columns.length)
    .map((from, i, all) => ({ from, to: Math.min(columns.length, (all[i + 1] ?? columns.length + 1) - 1) }))
    .map((b, i) => ({ ...b, width: sum(b.from, b.to) + (i === 0 ? 0 : repeat) }));
  const printable = printableLandscape(paper).width;
  const widest = Math.max(0, ...blocks.map((b) => b.width));
  const scale = Math.max(MIN_PRINT_SCALE, Math.min(100, Math.floor((100 * printable) / widest)));
  const page = (printable * 100) / scale;
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
  return { mode: 'blocks', paper, scale, folded: [], repeatColumns: 'A:B', breaksAfter };
}

/** The <colBreaks> element for `breaksAfter` (a break's id is the 0-based index of the column after it). */
export function colBreaksXml(breaksAfter: readonly number[]): string {
  if (breaksAfter.length === 0) return '';
  const brks = breaksAfter.map((c) => `<brk id="${c}" max="1048575" man="1"/>`).join('');
  return `<colBreaks count="${breaksAfter.length}" manualBreakCount="${breaksAfter.length}">${brks}</colBreaks>`;
}

/**
 * The paper a region uses when PRINT_PAPER is not set: Letter in the zones of the countries that print on it (the
 * United States, Canada, Mexico and the Americas' Letter countries, the Philippines), A4 elsewhere.
 */
const LETTER_ZONES =
  /^(America\/(New_York|Chicago|Denver|Phoenix|Los_Angeles|Anchorage|Adak|Boise|Detroit|Indiana\/.*|Kentucky\/.*|Menominee|Metlakatla|Nome|North_Dakota\/.*|Sitka|Juneau|Yakutat|Toronto|Vancouver|Edmonton|Winnipeg|Regina|Halifax|St_Johns|Moncton|Whitehorse|Yellowknife|Iqaluit|Mexico_City|Monterrey|Tijuana|Cancun|Merida|Chihuahua|Hermosillo|Mazatlan|Bogota|Caracas|Santiago|Guatemala|Costa_Rica|El_Salvador|Managua|Panama|Puerto_Rico)|US\/.*|Canada\/.*|Pacific\/Honolulu|Asia\/Manila)$/;
export function defaultPaper(timeZone: string | undefined): Paper {
  return timeZone && LETTER_ZONES.test(timeZone) ? 'letter' : 'a4';
}

/**
 * The page setup of the Suppliers, Award and Notes sheets: landscape, the largest scale from MIN_PRINT_SCALE to
 * 100 % at which their columns fit one page wide, never smaller (their long texts wrap in their columns instead of
 * the whole sheet shrinking to one page wide, which printed the Suppliers sheet at about 5 pt).
 */
export function readableSetup(widths: readonly number[], paper: Paper): { paperSize: number; scale: number } {
  const pt = widths.reduce((a, w) => a + columnPt(w), 0);
  const scale = Math.max(MIN_PRINT_SCALE, Math.min(100, Math.floor((100 * printableLandscape(paper).width) / pt)));
  return { paperSize: PAPER[paper].code, scale };
}

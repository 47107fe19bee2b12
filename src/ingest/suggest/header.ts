/**
 * The header of the sample `check --suggest` drafts from: among the first rows, the row of column names; and when
 * the names are over two rows (header-rows.ts: names merged down, group headings over sub-headings), both rows,
 * each column named by its lowest name, the group headings kept as context for the evidence.
 */
import { headerGroups, mergedDownNames, twoRowHeader, type HeaderGroup } from '../header-rows.ts';
import { cellText, isBlankRow, type Cell } from '../mapping-engine.ts';
import { normalizeHeader } from '../mapping-profile.ts';
import type { HeadRow } from '../formats/index.ts';
import { HEADER_SEARCH_ROWS } from '../profile-selection.ts';
import { DATE_LIKE } from './numbers.ts';

/** The header part of a sample (suggest/sample.ts FileSample). */
export interface SampleHeader {
  /** The header's row (the lower one of a header over two rows). */
  headerRow: number;
  /** Rows above the header that hold something (title lines). */
  titleRows: number;
  headers: string[];
  /** A header over two rows: its upper row, the group headings, the names merged down. */
  twoRows?: { upperRow: number; groups: HeaderGroup[]; mergedDown: string[] };
}

/** The header of `rows` and the index of its (lower) row; undefined when none is found. */
export function sampleHeader(rows: readonly HeadRow[]): { at: number; header: SampleHeader } | undefined {
  const found = findHeader(rows);
  if (!found) return undefined;
  const pair = twoRowsAt(rows, found.at - 1) ?? twoRowsAt(rows, found.at);
  const at = pair ? pair.upper + 1 : found.at;
  const top = pair ? pair.upper : found.at;
  const cells = pair ? twoRowHeader(rows[top]!.cells, rows[at]!.cells) : rows[at]!.cells;
  const headers = cells.map(cellText);
  while (headers.length > 0 && headers[headers.length - 1] === '') headers.pop();
  const header: SampleHeader = {
    headerRow: rows[at]!.row,
    titleRows: rows.slice(0, top).filter((r) => !isBlankRow(r.cells)).length,
    headers,
  };
  if (pair) {
    const [upper, lower] = [rows[top]!.cells, rows[at]!.cells];
    header.twoRows = {
      upperRow: rows[top]!.row,
      groups: headerGroups(upper, lower),
      mergedDown: mergedDownNames(upper, lower),
    };
  }
  return { at, header };
}

/**
 * The header: among the first rows, the one with the most distinct text cells (no numbers, no dates), at least two,
 * with data below it at least half as wide. Title lines ("List Display of ...", a merged title cell) have fewer.
 */
function findHeader(rows: readonly HeadRow[]): { at: number } | undefined {
  let best: { at: number; score: number } | undefined;
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < limit; i++) {
    const cells = rows[i]!.cells;
    if (!namesOnly(cells, false)) continue;
    const texts = cells.map(cellText).filter((t) => t !== '');
    const distinct = new Set(texts.map((t) => t.toLowerCase())).size;
    if (distinct < texts.length) continue;
    const below = rows.slice(i + 1, i + 6).filter((r) => !isBlankRow(r.cells));
    if (
      below.length > 0 &&
      Math.max(...below.map((r) => r.cells.filter((c) => cellText(c) !== '').length)) < texts.length / 2
    )
      continue;
    if (!best || texts.length > best.score) best = { at: i, score: texts.length };
  }
  return best && { at: best.at };
}

/** At least two text cells, none a number (or, `strict`, a date written as text). */
function namesOnly(cells: readonly Cell[], strict: boolean): boolean {
  if (cells.some((c) => typeof c === 'number' || c instanceof Date)) return false;
  const texts = cells.map(cellText).filter((t) => t !== '');
  return texts.length >= 2 && !texts.some((t) => /^[-+]?[\d.,\s]+$/.test(t) || (strict && DATE_LIKE.test(t)));
}

/**
 * Rows `upper` and `upper + 1` as one header over two rows: consecutive rows of names only, the upper naming a column
 * that holds data below and that the lower leaves blank (a name merged down), the lower naming a column the upper
 * leaves blank (a sub-heading under a group heading to its left; a group line under a whole header has none), the
 * names distinct, and no name of the lower row repeated in its column below (a first data row written all in text
 * repeats its keys and units).
 */
function twoRowsAt(rows: readonly HeadRow[], upper: number): { upper: number } | undefined {
  const u = rows[upper];
  const l = rows[upper + 1];
  if (!u || !l || l.row !== u.row + 1 || !namesOnly(u.cells, true) || !namesOnly(l.cells, true)) return undefined;
  const below = rows.slice(upper + 2, upper + 7).filter((r) => !isBlankRow(r.cells));
  const holdsData = (i: number) => below.some((r) => cellText(r.cells[i]) !== '');
  const mergedDown = u.cells.some((c, i) => cellText(c) !== '' && cellText(l.cells[i]) === '' && holdsData(i));
  const subHeading = l.cells.some((c, i) => cellText(c) !== '' && cellText(u.cells[i]) === '');
  if (!mergedDown || !subHeading) return undefined;
  const names = twoRowHeader(u.cells, l.cells)
    .map((c) => normalizeHeader(cellText(c)))
    .filter(Boolean);
  if (new Set(names).size < names.length) return undefined;
  const repeated = l.cells.some(
    (c, i) => cellText(c) !== '' && below.some((r) => cellText(r.cells[i]) === cellText(c)),
  );
  return repeated ? undefined : { upper };
}

/**
 * Which profile reads a file, and why (shown by `check` and in the report): a forced `--mapping` name; else the
 * profiles whose header columns are all present in one of the first rows, those whose file-name pattern also
 * matches first, then the most specific (most columns). A name match whose columns are missing is refused with
 * the missing columns named, rather than guessing another layout. A header over two rows (header-rows.ts) is read
 * where the profile says so (`source.header_rows: 2`), and tried where no single row has the profile's columns.
 */
import { FileRefusedError, MappingError } from '../core/index.ts';
import type { HeadRow } from './formats/index.ts';
import { twoRowHeader } from './header-rows.ts';
import { headerIndex, missingColumns, type Cell } from './mapping-engine.ts';
import type { MappingProfile } from './mapping-profile.ts';

/** Rows searched for the header (title lines above it are common). */
export const HEADER_SEARCH_ROWS = 50;

export interface ProfileChoice {
  profile: MappingProfile;
  /** Index into the head rows of the header row (the lower one of a header over two rows). */
  headerAt: number;
  /** The header's cells: the row's, or each column's lowest name of a header over two rows. */
  header: Cell[];
  reason: string;
}

/** A header found: its (lower) row's index into the head rows, its cells, and over how many rows it is. */
interface Found {
  at: number;
  cells: Cell[];
  rows: 1 | 2;
}

/** The header index of each head row (and of each row with the one above it), built once for every profile tried. */
const indexes = new WeakMap<readonly HeadRow[], Map<1 | 2, (Map<string, number> | undefined)[]>>();
function indexOf(head: readonly HeadRow[], at: number, rows: 1 | 2): Map<string, number> | undefined {
  let known = indexes.get(head);
  if (!known) indexes.set(head, (known = new Map()));
  let list = known.get(rows);
  if (!list) known.set(rows, (list = []));
  if (!(at in list)) {
    const cells = headerCells(head, at, rows);
    list[at] = cells && headerIndex(cells);
  }
  return list[at];
}

/** The header's cells with its lower row at `at`; undefined when the row above is not the one before it. */
function headerCells(head: readonly HeadRow[], at: number, rows: 1 | 2): Cell[] | undefined {
  const lower = head[at]!;
  if (rows === 1) return lower.cells;
  const upper = head[at - 1];
  return upper && upper.row === lower.row - 1 ? twoRowHeader(upper.cells, lower.cells) : undefined;
}

function findHeader(p: MappingProfile, head: readonly HeadRow[]): Found | { missing: string[] } {
  let fewest: string[] | undefined;
  for (const rows of p.headerRows === 2 ? ([2] as const) : ([1, 2] as const))
    for (let i = rows - 1; i < head.length; i++) {
      if (p.headerRow !== undefined && head[i]!.row !== p.headerRow) continue;
      const idx = indexOf(head, i, rows);
      if (!idx) continue;
      const missing = missingColumns(p, idx);
      if (missing.length === 0) return { at: i, cells: headerCells(head, i, rows)!, rows };
      if (!fewest || missing.length < fewest.length) fewest = missing;
    }
  return { missing: fewest ?? [...new Set([...p.columns, ...p.matchHeaders])] };
}

/** "row 3", or "rows 2-3" for a header over two rows. */
function headerPlace(head: readonly HeadRow[], h: Found): string {
  const row = head[h.at]!.row;
  return h.rows === 2 ? `rows ${row - 1}-${row}` : `row ${row}`;
}

function list(cols: string[]): string {
  const shown = cols
    .slice(0, 8)
    .map((c) => `"${c}"`)
    .join(', ');
  return cols.length > 8 ? `${shown} and ${cols.length - 8} more` : shown;
}

export function chooseProfile(
  profiles: readonly MappingProfile[],
  displayName: string,
  head: readonly HeadRow[],
  mappingName?: string,
): ProfileChoice {
  const where = head.length < HEADER_SEARCH_ROWS ? 'its rows' : `its first ${HEADER_SEARCH_ROWS} rows`;
  if (mappingName !== undefined) {
    const p = profiles.find((x) => x.name.toLowerCase() === mappingName.toLowerCase());
    if (!p)
      throw new MappingError(
        `no mapping profile is named "${mappingName}" (profiles: ${profiles.map((x) => x.name).join(', ')})`,
      );
    const h = findHeader(p, head);
    if ('missing' in h)
      throw new FileRefusedError(
        displayName,
        `has no header row with the columns of mapping "${p.name}" in ${where} (missing: ${list(h.missing)})`,
      );
    return {
      profile: p,
      headerAt: h.at,
      header: h.cells,
      reason: `named with --mapping; header found on ${headerPlace(head, h)}`,
    };
  }
  const fits: { p: MappingProfile; h: Found; byName: boolean }[] = [];
  const nameOnly: { p: MappingProfile; missing: string[] }[] = [];
  let closest: { p: MappingProfile; missing: string[] } | undefined;
  for (const p of profiles) {
    const byName = p.filenamePatterns.some((re) => re.test(displayName));
    const h = findHeader(p, head);
    if ('at' in h) fits.push({ p, h, byName });
    else {
      if (byName) nameOnly.push({ p, missing: h.missing });
      if (!closest || h.missing.length < closest.missing.length) closest = { p, missing: h.missing };
    }
  }
  fits.sort(
    (a, b) =>
      Number(b.byName) - Number(a.byName) ||
      b.p.columns.length - a.p.columns.length ||
      a.p.name.localeCompare(b.p.name),
  );
  const best = fits[0];
  if (best) {
    const place = headerPlace(head, best.h);
    const cols = best.p.columns.length;
    const reason = best.byName
      ? `file name matches ${best.p.filenameGlobs.map((g) => `"${g}"`).join(' or ')} and the header on ${place} has all ${cols} of its columns`
      : `the header on ${place} has all ${cols} of its columns${
          fits.length > 1
            ? ` (also fitting: ${fits
                .slice(1)
                .map((f) => f.p.name)
                .join(', ')})`
            : ''
        }`;
    return { profile: best.p, headerAt: best.h.at, header: best.h.cells, reason };
  }
  if (nameOnly.length > 0) {
    const n = nameOnly.sort((a, b) => a.missing.length - b.missing.length)[0]!;
    throw new FileRefusedError(
      displayName,
      nameOnly.length === 1
        ? `matches the file name pattern of mapping "${n.p.name}" but has no header row with its columns in ${where} (missing: ${list(n.missing)})`
        : `matches the file name patterns of mappings ${nameOnly.map((x) => `"${x.p.name}"`).join(', ')} but has no header row with the columns of any in ${where} (closest "${n.p.name}", missing: ${list(n.missing)})`,
    );
  }
  const hint = closest ? `; closest is "${closest.p.name}", missing ${list(closest.missing)}` : '';
  throw new FileRefusedError(displayName, `fits no mapping profile by file name or header columns${hint}`);
}

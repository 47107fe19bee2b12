/**
 * Which profile reads a file, and why (shown by `check` and in the report): a forced `--mapping` name; else the
 * profiles whose header columns are all present in one of the first rows, those whose file-name pattern also
 * matches first, then the most specific (most columns). A name match whose columns are missing is refused with
 * the missing columns named, rather than guessing another layout.
 */
import { FileRefusedError, MappingError } from '../core/index.ts';
import type { HeadRow } from './formats/index.ts';
import { headerIndex, missingColumns } from './mapping-engine.ts';
import type { MappingProfile } from './mapping-profile.ts';

/** Rows searched for the header (title lines above it are common). */
export const HEADER_SEARCH_ROWS = 50;

export interface ProfileChoice {
  profile: MappingProfile;
  /** Index into the head rows of the header row. */
  headerAt: number;
  reason: string;
}

/** The header index of each head row, built once for every profile tried (a row may hold a huge cell). */
const indexes = new WeakMap<readonly HeadRow[], Map<string, number>[]>();
function indexesOf(head: readonly HeadRow[]): Map<string, number>[] {
  let known = indexes.get(head);
  if (!known) indexes.set(head, (known = head.map((h) => headerIndex(h.cells))));
  return known;
}

function findHeader(p: MappingProfile, head: readonly HeadRow[]): { at: number } | { missing: string[] } {
  let fewest: string[] | undefined;
  const idx = indexesOf(head);
  for (let i = 0; i < head.length; i++) {
    if (p.headerRow !== undefined && head[i]!.row !== p.headerRow) continue;
    const missing = missingColumns(p, idx[i]!);
    if (missing.length === 0) return { at: i };
    if (!fewest || missing.length < fewest.length) fewest = missing;
  }
  return { missing: fewest ?? [...new Set([...p.columns, ...p.matchHeaders])] };
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
    return { profile: p, headerAt: h.at, reason: `named with --mapping; header found on row ${head[h.at]!.row}` };
  }
  const fits: { p: MappingProfile; at: number; byName: boolean }[] = [];
  const nameOnly: { p: MappingProfile; missing: string[] }[] = [];
  let closest: { p: MappingProfile; missing: string[] } | undefined;
  for (const p of profiles) {
    const byName = p.filenamePatterns.some((re) => re.test(displayName));
    const h = findHeader(p, head);
    if ('at' in h) fits.push({ p, at: h.at, byName });
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
    const row = head[best.at]!.row;
    const cols = best.p.columns.length;
    const reason = best.byName
      ? `file name matches ${best.p.filenameGlobs.map((g) => `"${g}"`).join(' or ')} and the header on row ${row} has all ${cols} of its columns`
      : `the header on row ${row} has all ${cols} of its columns${
          fits.length > 1
            ? ` (also fitting: ${fits
                .slice(1)
                .map((f) => f.p.name)
                .join(', ')})`
            : ''
        }`;
    return { profile: best.p, headerAt: best.at, reason };
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

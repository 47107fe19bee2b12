/**
 * Whether a file is one only a broken profile could take (profile-catalog.ts): then it is held until that profile is
 * fixed, never read with another profile, never refused. A broken profile stands in with what it would claim (its
 * file-name patterns and columns) and is ranked with the working ones exactly as profile-selection.ts ranks them:
 * the file is held when the stand-in would win. A file no profile fits is held for a broken profile whose file-name
 * pattern matches it, or for one that could not be read at all (it might have fitted: nobody can tell).
 */
import type { BrokenProfile } from './profile-catalog.ts';
import { globToRegExp, type MappingProfile } from './mapping-profile.ts';
import type { HeadRow } from './formats/index.ts';
import { chooseProfile } from './profile-selection.ts';

export function heldFor(
  broken: readonly BrokenProfile[],
  profiles: readonly MappingProfile[],
  file: string,
  head: readonly HeadRow[],
  mappingName?: string,
): BrokenProfile[] | undefined {
  if (broken.length === 0) return undefined;
  if (mappingName !== undefined) {
    const named = (p: { name: string }) => p.name.toLowerCase() === mappingName.toLowerCase();
    if (profiles.some(named)) return undefined;
    const b = broken.filter(named);
    return b.length > 0 ? b : undefined;
  }
  const standIns = new Map<MappingProfile, BrokenProfile>();
  for (const b of broken) {
    if (!b.claims) continue;
    const patterns = b.claims.filenameGlobs.map(globToRegExp);
    // a stand-in without columns fits any header: it counts only where its file-name pattern matches
    if (b.claims.columns.length === 0 && !patterns.some((re) => re.test(file))) continue;
    standIns.set(standIn(b, patterns), b);
  }
  try {
    const winner = chooseProfile([...profiles, ...standIns.keys()], file, head).profile;
    const b = standIns.get(winner);
    return b ? [b] : undefined;
  } catch {
    const byName = broken.filter((b) => b.claims?.filenameGlobs.map(globToRegExp).some((re) => re.test(file)));
    const unknown = broken.filter((b) => !b.claims);
    const held = [...byName, ...unknown];
    return held.length > 0 ? held : undefined;
  }
}

/** A profile ranked like the working ones from what the broken one claims; never used to read a row. */
function standIn(b: BrokenProfile, patterns: RegExp[]): MappingProfile {
  const columns = b.claims!.columns;
  return {
    name: b.name,
    description: '',
    file: b.file,
    filenameGlobs: b.claims!.filenameGlobs,
    filenamePatterns: patterns,
    matchHeaders: columns,
    delimiter: 'auto',
    hiddenRows: 'hold',
    numbers: { decimal: '.', thousands: 'auto' },
    dates: { formats: ['iso'], timeZone: 'UTC', defaultTime: '12:00' },
    continuationColumns: [],
    qtyRounding: 'error',
    skipRows: [],
    fields: {},
    columns,
  };
}

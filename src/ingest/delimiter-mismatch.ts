/**
 * A CSV profile may pin its delimiter (`source.delimiter: ";"`). An export saved with another one (tab instead of
 * ";") reads as one cell per line, and the refusal would name every column as missing although the header is there.
 * When the profile's header is found with another delimiter, the refusal says that instead: the file, the
 * delimiter the profile expects and the one the file has.
 */
import { FileRefusedError } from '../core/index.ts';
import { DELIMITERS, type Delimiter, type HeadRow, type RowSource } from './formats/index.ts';
import type { MappingProfile } from './mapping-profile.ts';
import { chooseProfile, HEADER_SEARCH_ROWS } from './profile-selection.ts';

const said = (d: Delimiter): string => (d === '\t' ? 'tab' : `"${d}"`);

/** The refusal naming the delimiter the file has, when `profile` pins another and its header is there with it. */
export async function delimiterRefusal(
  source: RowSource,
  profile: MappingProfile,
  file: string,
): Promise<FileRefusedError | undefined> {
  const pinned = profile.delimiter;
  if (pinned === 'auto') return undefined;
  for (const d of DELIMITERS) {
    if (d === pinned) continue;
    const head = await headWith(source, d);
    let row: number;
    try {
      row = head[chooseProfile([profile], file, head, profile.name).headerAt]!.row;
    } catch {
      continue;
    }
    return new FileRefusedError(
      file,
      `is delimited by ${said(d)}, not by ${said(pinned)} as mapping "${profile.name}" pins (source.delimiter): its header is on row ${row} when split by ${said(d)}; save the export with ${said(pinned)}, or set source.delimiter to ${JSON.stringify(d)} (or auto)`,
    );
  }
  return undefined;
}

/** The first rows split by `d` ([] when they cannot be read so: that delimiter is not the file's). */
async function headWith(source: RowSource, d: Delimiter): Promise<HeadRow[]> {
  const rows = source.open(undefined, d);
  const head: HeadRow[] = [];
  try {
    for await (const batch of rows) {
      head.push(...batch.slice(0, HEADER_SEARCH_ROWS - head.length));
      if (head.length >= HEADER_SEARCH_ROWS) break;
    }
  } catch {
    return [];
  } finally {
    await rows.return(undefined);
  }
  return head;
}

/**
 * Done files for the ERP (OUTBOX_DONE_FILES), so the next system knows a file is complete before it reads it:
 *   - `marker`: an empty `<file>.done` beside each file of an output for the ERP (the award file);
 *   - `manifest`: per RFQ version, `awards/<award name>.manifest.json` listing what its outputs wrote (its workbook,
 *     its award file when the award is final, any other registered output) and the overview as it stands, each
 *     with its role (the output's name), sha256 and size.
 * Each is written after the files it names, to a temporary name then renamed. The comparison job writes them before
 * it records the version: a crash in between writes the files and their done files again, under the same names.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { writeFileAtomically } from '../core/index.ts';
import type { SettingValues, folderSettings, Folders } from '../settings/index.ts';
import type { WrittenFile } from '../comparison/index.ts';

export interface VersionFiles {
  rfqId: number;
  version: number;
  /** What the version's outputs wrote, in the order written. */
  files: readonly WrittenFile[];
  /** The award file's name, written or not: the manifest is named after it. */
  awardName: string;
  /** The account's overview, listed when it exists. */
  overview: string;
}

export const DONE_SUFFIX = '.done';

/** The done files written (none with `off`). */
export async function writeDoneFiles(
  config: Pick<SettingValues<typeof folderSettings>, 'OUTBOX_DONE_FILES'> & {
    folders: Pick<Folders, 'outbox' | 'awards'>;
  },
  f: VersionFiles,
): Promise<string[]> {
  if (config.OUTBOX_DONE_FILES === 'marker') {
    const markers = f.files.filter((w) => w.forErp).map((w) => `${w.path}${DONE_SUFFIX}`);
    for (const marker of markers) await writeFileAtomically(marker, '');
    return markers;
  }
  if (config.OUTBOX_DONE_FILES !== 'manifest') return [];
  const outbox = config.folders.outbox;
  const listed: Array<[role: string, path: string]> = f.files.map((w) => [w.output, w.path]);
  if (await stat(f.overview).catch(() => undefined)) listed.push(['overview', f.overview]);
  const files = [];
  for (const [role, path] of listed) {
    const { sha256, size } = await digest(path);
    files.push({ role, path: relative(outbox, path).split(sep).join('/'), sha256, size });
  }
  const manifest = join(config.folders.awards, `${basename(f.awardName).replace(/\.csv$/i, '')}.manifest.json`);
  const body = {
    rfq_id: f.rfqId,
    version: f.version,
    written_at: new Date().toISOString(),
    files,
    // the overview is the account's, rewritten after every poll: its entry is the file as this version found it
    ...(listed.some(([role]) => role === 'overview')
      ? { overview_note: 'as it stood when this manifest was written' }
      : {}),
  };
  await writeFileAtomically(manifest, `${JSON.stringify(body, null, 2)}\n`);
  return [manifest];
}

async function digest(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

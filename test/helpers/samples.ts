/** The shipped sample exports, as `check` reads them: which external_ids a run of them must create. */
import { resolve } from 'node:path';
import { ingestFile, loadProfiles } from '../../src/ingest/index.ts';

export const SAMPLES_DIR = resolve(import.meta.dirname, '../../samples');
const LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxXlsxUncompressedBytes: 50 * 1024 * 1024, maxXlsxEntries: 1000 };

/** Every external_id these sample files hold, sorted. */
export async function sampleExternalIds(files: readonly string[]): Promise<string[]> {
  const profiles = await loadProfiles(resolve(import.meta.dirname, '../../mappings'));
  const ids: string[] = [];
  for (const f of files)
    await ingestFile(
      resolve(SAMPLES_DIR, f),
      { profiles, limits: LIMITS },
      async (r) => void ids.push(...r.lines.map((l) => l.external_id)),
    );
  return ids.sort();
}

/** The shipped sample exports, as `check` reads them: which external_ids a run of them must create. */
import { resolve } from 'node:path';
import { ingestFile, loadProfiles } from '../../src/ingest/index.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';

export const SAMPLES_DIR = resolve(import.meta.dirname, '../../samples');
/** Three exports of three ERPs (11 requisitions): what a new user tries first. */
export const SAMPLES = ['generic-template.csv', 'ME5A_export_EN.csv', 'EBS_requisition_lines.csv'];
const LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxXlsxUncompressedBytes: 50 * 1024 * 1024, maxXlsxEntries: 1000 };

/** The sample files for an inbox: name -> where it is. */
export function samplesInbox(files: readonly string[] = SAMPLES): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f, resolve(SAMPLES_DIR, f)]));
}

/** Every external_id these sample files hold, sorted. */
export async function sampleExternalIds(files: readonly string[] = SAMPLES): Promise<string[]> {
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

/**
 * The RFQs a run of the samples created on the sandbox (those after the `handMade` ones it held), with the
 * external_ids their lines carry and those the samples hold (equal: every line once, none lost, none twice).
 */
export async function createdFromSamples(
  sandbox: Sandbox,
  handMade: number,
  company = 'Sandbox Buyer Ltd',
): Promise<{ rfqs: StoredRfq[]; externalIds: string[]; expected: string[] }> {
  const rfqs = sandbox.control
    .listAll()
    .filter((r) => r.company === company)
    .slice(handMade);
  const externalIds = rfqs.flatMap((r) => r.lines.map((l) => l.external_id ?? '')).sort();
  return { rfqs, externalIds, expected: await sampleExternalIds() };
}

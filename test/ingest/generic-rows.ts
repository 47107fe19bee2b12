/**
 * Rows of the generic template (mappings/generic.yaml; its header: test/helpers/generic-template.ts), for tests that
 * have other tools write them in their formats, the generic profile with the test's own source settings, and an
 * ingest that keeps the summary.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { FileRefusedError } from '../../src/core/errors.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { compileProfile, ingestFile, type IngestSummary, type MappingProfile } from '../../src/ingest/index.ts';

export const NOW = new Date('2026-11-22T10:00:00Z');
export const LIMITS = {
  maxFileBytes: 80 * 1024 * 1024,
  maxXlsxUncompressedBytes: 200 * 1024 * 1024,
  maxXlsxEntries: 1000,
};

/** One line of the template: quantities and totals as numbers, dates as ISO text. */
export function genericRow(pr: string, line: number, item: string, category = 'Hardware'): Array<string | number> {
  return [
    pr,
    line,
    item,
    '',
    'pc',
    line + 1,
    100 * line,
    `PR ${pr}`,
    'written elsewhere',
    '2027-03-01',
    '2027-04-01',
    'Public',
    category,
    'Werk Köln',
  ];
}

/** `n` requisitions of `per` lines each, their items numbered. */
export function genericRows(prefix: string, n: number, per: number): Array<Array<string | number>> {
  const rows = [];
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= per; j++) rows.push(genericRow(`${prefix}-${i}`, j, `Item ${i}.${j}`));
  return rows;
}

const GENERIC = parseYaml(readFileSync(fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url)), 'utf8'));

/** mappings/generic.yaml with the test's changes (`source`, `dates`, ...). */
export function genericProfile(changes: Record<string, unknown> = {}, name = 'generic'): MappingProfile {
  return compileProfile({ ...GENERIC, ...changes, name }, `${name}.yaml`);
}

export interface Ingested {
  summary: IngestSummary;
  reqs: Requisition[];
}

export async function ingest(path: string, profiles: MappingProfile[], file?: string): Promise<Ingested> {
  const reqs: Requisition[] = [];
  const summary = await ingestFile(
    path,
    { profiles, limits: LIMITS, now: NOW, ...(file ? { displayName: file } : {}) },
    async (r) => void reqs.push(r),
  );
  return { summary, reqs };
}

/** The reason a file is refused for (the test fails when it is read). */
export async function refusal(path: string, profiles: MappingProfile[]): Promise<string> {
  try {
    await ingest(path, profiles);
  } catch (err) {
    if (err instanceof FileRefusedError) return err.message;
    throw err;
  }
  throw new Error(`${path} was read`);
}

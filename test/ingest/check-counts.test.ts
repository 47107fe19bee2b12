/**
 * Honest counts in `check` (issue 21): "more problems not shown" was printed for every file longer than the report's
 * row list (10,000 rows), problems or not. It is said only when problems were cut, with how many.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfiles, runCheck, type MappingProfile } from '../../src/ingest/index.ts';
import { MAX_REPORTED } from '../../src/ingest/row-report.ts';
import { GENERIC_HEADER } from '../helpers/pipeline.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 64 * 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rfq-check-counts-'));
  profiles = await loadProfiles(`${ROOT}mappings`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `n` one-line requisitions; `qty` for every row (2.5 is a row error). */
async function csv(name: string, n: number, qty: string): Promise<string> {
  let body = `${GENERIC_HEADER}\n`;
  for (let i = 0; i < n; i++)
    body += `PR-${i},1,Item ${i},Spec,pc,${qty},100,Requisition ${i},Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n`;
  const path = join(dir, name);
  await writeFile(path, body);
  return path;
}

async function check(path: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCheck(path, { profiles, limits: LIMITS, now: NOW }, (l) => lines.push(l));
  return { code, lines };
}

describe('check counts', () => {
  it('a clean file longer than the row list says nothing about problems not shown', async () => {
    const { code, lines } = await check(await csv('clean.csv', MAX_REPORTED + 5, '2'));
    expect(code).toBe(0);
    expect(lines.filter((l) => /not shown/.test(l))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^would create 10005 requisition\(s\) with 10005 line\(s\); .* 0 row\(s\) rejected/);
  });

  it('a file with more problems than are listed says how many were cut', async () => {
    const { code, lines } = await check(await csv('bad.csv', MAX_REPORTED + 3, '2.5'));
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(MAX_REPORTED);
    expect(lines).toContain(`... 3 more problem(s) not shown (the first ${MAX_REPORTED} are above)`);
  });
});

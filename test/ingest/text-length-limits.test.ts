/**
 * Text longer than the sourcing service takes is rejected at ingest, in the report (file, row, column, "longer than
 * N characters (got M)"), with the same maxima as the client's request schema: before, a 50 MB product name went on
 * as a 50 MB create-rfq job and was refused by the client with nothing in the report.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, loadProfiles, type IngestSummary, type MappingProfile } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { REQUEST_TEXT_LIMITS } from '../../src/sourcing/limits.ts';
import { createRfqRequestSchema } from '../../src/sourcing/schemas.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 80 * 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
interface Row {
  key: string;
  n: number;
  item?: string;
  spec?: string;
  uom?: string;
  title?: string;
  desc?: string;
  cat?: string;
  loc?: string;
}
const line = (r: Row): string =>
  [
    r.key,
    r.n,
    r.item ?? `Item ${r.n}`,
    r.spec ?? '',
    r.uom ?? 'pc',
    5,
    100,
    r.title ?? `Title ${r.key}`,
    r.desc ?? '',
    '2027-03-01',
    '2027-04-01',
    'Private',
    r.cat ?? 'Cat',
    r.loc ?? 'Loc',
  ].join(',');

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-text-limits-');
  profiles = await loadProfiles(`${ROOT}mappings`);
});

async function ingest(name: string, rows: Row[]): Promise<{ s: IngestSummary; reqs: Requisition[] }> {
  const path = join(dir, name);
  await writeFile(path, [HEADER, ...rows.map(line), ''].join('\n'));
  const reqs: Requisition[] = [];
  const s = await ingestFile(path, { profiles, limits: LIMITS, now: NOW }, async (r) => void reqs.push(r));
  return { s, reqs };
}

describe('text length limits at ingest', () => {
  it('the limits are the ones the client request schema enforces', () => {
    const line = { product_name: 'p', qty: 1, external_id: 'e' };
    const req = { title: 't', due_date: '1', rfq_type: 'Private' as const, lines: [line] };
    const ok = (r: unknown): boolean => createRfqRequestSchema.safeParse(r).success;
    for (const f of ['title', 'description', 'rfq_category', 'rfq_location'] as const) {
      expect([
        f,
        ok({ ...req, [f]: 'x'.repeat(REQUEST_TEXT_LIMITS[f]) }),
        ok({ ...req, [f]: 'x'.repeat(REQUEST_TEXT_LIMITS[f] + 1) }),
      ]).toEqual([f, true, false]);
    }
    for (const f of ['product_name', 'specification', 'uom', 'external_id'] as const) {
      const at = (n: number): boolean => ok({ ...req, lines: [{ ...line, [f]: 'x'.repeat(n) }] });
      expect([f, at(REQUEST_TEXT_LIMITS[f]), at(REQUEST_TEXT_LIMITS[f] + 1)]).toEqual([f, true, false]);
    }
  });

  it('each overlong line field rejects its row; values at the limit pass', async () => {
    const { s, reqs } = await ingest('long-lines.csv', [
      { key: 'OK1', n: 1, item: 'p'.repeat(500), spec: 's'.repeat(5000), uom: 'u'.repeat(50) },
      { key: 'L1', n: 1, item: 'p'.repeat(501) },
      { key: 'L2', n: 1, spec: 's'.repeat(5001) },
      { key: 'L3', n: 1, uom: 'u'.repeat(51) },
      { key: 'L4'.padEnd(199, 'k'), n: 10 },
    ]);
    expect(reqs.map((r) => r.key)).toEqual(['OK1']);
    expect(s.problems.filter((p) => p.severity === 'error').map((p) => [p.row, p.column, p.reason])).toEqual([
      [3, 'Item', 'product_name is longer than 500 characters (got 501)'],
      [4, 'Specification', 'specification is longer than 5000 characters (got 5001)'],
      [5, 'UoM', 'uom is longer than 50 characters (got 51)'],
      [6, 'external_id (Requisition + Line)', 'external_id is longer than 200 characters (got 202)'],
    ]);
  });

  it('each overlong requisition field (title, description, category, location) holds its requisition back', async () => {
    const { s, reqs } = await ingest('long-headers.csv', [
      { key: 'H0', n: 1, title: 't'.repeat(500), desc: 'd'.repeat(20_000), cat: 'c'.repeat(200), loc: 'l'.repeat(200) },
      { key: 'H1', n: 1, title: 't'.repeat(501) },
      { key: 'H2', n: 1, desc: 'd'.repeat(20_001) },
      { key: 'H3', n: 1, cat: 'c'.repeat(201) },
      { key: 'H4', n: 1, loc: 'l'.repeat(201) },
    ]);
    expect(reqs.map((r) => r.key)).toEqual(['H0']);
    expect(s.problems.filter((p) => p.severity === 'error').map((p) => [p.row, p.column, p.reason])).toEqual([
      [3, 'Title', 'title is longer than 500 characters (got 501)'],
      [4, 'Description', 'description is longer than 20000 characters (got 20001)'],
      [5, 'Category', 'rfq_category is longer than 200 characters (got 201)'],
      [6, 'Location', 'rfq_location is longer than 200 characters (got 201)'],
    ]);
  });

  it('a 20 MB product name: row rejected, the report keeps only the start of the value', async () => {
    const { s, reqs } = await ingest('huge-cell.csv', [
      { key: 'BIG', n: 1, item: 'x'.repeat(20_000_000) },
      { key: 'SMALL', n: 1 },
    ]);
    expect(reqs.map((r) => r.key)).toEqual(['SMALL']);
    const p = s.problems.find((q) => q.severity === 'error')!;
    expect([p.row, p.column, p.reason]).toEqual([
      2,
      'Item',
      'product_name is longer than 500 characters (got 20000000)',
    ]);
    expect(p.value.length).toBeLessThanOrEqual(200);
  });
});

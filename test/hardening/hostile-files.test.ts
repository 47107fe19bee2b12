/**
 * Hostile files, first straight through ingestFile (refusal or rows as expected, never a crash, memory bounded),
 * then through the real pipeline (worker + inbox watcher + Redis + sandbox over HTTP) when it is there.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRefusedError, RfqSyncError } from '../../src/errors.ts';
import { ingestFile } from '../../src/ingest/ingest-file.ts';
import { loadProfiles, type MappingProfile } from '../../src/ingest/mapping-profile.ts';
import { PACKAGE_ROOT } from '../../src/config.ts';
import type { Requisition } from '../../src/requisition.ts';
import { recordFigure } from './figures.ts';
import { HOSTILE_LIMITS, hostileCases, type HostileCase } from './hostile-files.ts';
import { MB, withPeakRss } from './memory.ts';

/** Growth of resident memory allowed while one hostile file is read (the largest holds a 50 MB cell). */
const RSS_BOUND_MB = 400;

/**
 * Cases that expose a defect routed to its owner (see the hardening report): kept out of the CI run until fixed;
 * `HARDENING_OPEN_DEFECTS=1 npm run test:hardening` runs them with their strict expectations.
 *  - zip-bomb-lying-size: src/ingest/file-sniffer.ts trusts the sizes in the zip's central directory; an xlsx whose
 *    headers claim 1 KB but whose sheet inflates to 96 MiB (limit 64 MiB) is inflated whole by exceljs and then
 *    reported "is empty (no rows)" instead of refused by the zip bomb guard.
 *  - million-empty-rows: src/ingest/csv-reader.ts parses with skip_empty_lines:false; csv-parse spends ~20 us per
 *    empty record, so 1,000,000 empty lines (a 2 MB file) take 35-90 s of CPU in the worker (many-empty-rows, 100,000
 *    of them, stays in the run).
 */
export const OPEN_DEFECTS = new Set(['zip-bomb-lying-size', 'million-empty-rows']);
const runDefects = process.env.HARDENING_OPEN_DEFECTS === '1';
const cases = hostileCases().filter((c) => runDefects || !OPEN_DEFECTS.has(c.id));

describe('hostile files straight through ingestFile', () => {
  let dir: string;
  let profiles: MappingProfile[];
  const results: Array<{ id: string; outcome: string; ms: number; rssMb: number; ok: boolean }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rfq-sync-hostile-'));
    // The shipped profiles, as a worker would load them: the files follow mappings/generic.yaml.
    profiles = await loadProfiles(join(PACKAGE_ROOT, 'mappings'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    const n = (o: string) => results.filter((r) => r.outcome === o).length;
    recordFigure({ section: 'hostile files', name: 'files generated (open defects left out)', value: `${hostileCases().length} (${hostileCases().length - cases.length})`, target: '>= 40', ok: cases.length >= 40 });
    recordFigure({ section: 'hostile files', name: 'ingestFile: refused / read / crashed', value: `${n('refused')} / ${n('read')} / ${n('crashed')}`, target: 'crashed 0', ok: n('crashed') === 0 });
    const peak = Math.max(0, ...results.map((r) => r.rssMb));
    const worst = results.find((r) => r.rssMb === peak);
    recordFigure({ section: 'hostile files', name: `ingestFile: worst RSS growth (${worst?.id ?? '-'})`, value: `${peak} MB`, target: `<= ${RSS_BOUND_MB} MB`, ok: peak <= RSS_BOUND_MB });
    const slow = Math.max(0, ...results.map((r) => r.ms));
    recordFigure({ section: 'hostile files', name: `ingestFile: slowest file (${results.find((r) => r.ms === slow)?.id ?? '-'})`, value: `${(slow / 1000).toFixed(1)} s`, ok: true });
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c: HostileCase) => {
    const caseDir = join(dir, c.id);
    const path = await c.write(caseDir);
    const got: Requisition[] = [];
    const t0 = performance.now();
    const { result, baseRss, peakRss } = await withPeakRss(() =>
      ingestFile(path, { profiles, limits: HOSTILE_LIMITS, displayName: c.fileName }, async (r) => {
        got.push(r);
      }),
    );
    const ms = performance.now() - t0;
    await rm(caseDir, { recursive: true, force: true });
    const rssMb = Math.round((peakRss - baseRss) / MB);
    const err = result.status === 'rejected' ? (result.reason as unknown) : undefined;
    // A refusal is one of our errors of kind `data`; anything else (TypeError, RangeError...) is a crash.
    const outcome = err === undefined ? 'read' : err instanceof RfqSyncError && err.kind === 'data' ? 'refused' : 'crashed';
    results.push({ id: c.id, outcome, ms, rssMb, ok: outcome !== 'crashed' });

    expect(outcome, `${c.id}: ${err instanceof Error ? `${err.name}: ${err.message}` : ''}`).not.toBe('crashed');
    expect(rssMb, `${c.id}: resident memory grew by ${rssMb} MB`).toBeLessThanOrEqual(RSS_BOUND_MB);
    if (c.expect.outcome === 'failed') {
      expect(outcome, `${c.id} must be refused`).toBe('refused');
      const message = (err as Error).message;
      expect(message, `${c.id}: the refusal must name the file`).toContain(c.fileName);
      expect(message, `${c.id}: the refusal must name the cause`).toMatch(c.expect.cause!);
      if (err instanceof FileRefusedError) expect(err.reason.length).toBeGreaterThan(5);
      expect(got, `${c.id}: a refused file yields no requisition`).toEqual([]);
    }
    if (c.expect.outcome === 'archive') {
      expect(outcome, `${c.id} must be read: ${err instanceof Error ? err.message : ''}`).toBe('read');
      if (result.status !== 'fulfilled') return;
      expect(result.value.heldRequisitions, JSON.stringify(result.value.problems.slice(0, 3))).toBe(0);
      expect(result.value.requisitions).toBe(c.expect.requisitions);
      expect(got).toHaveLength(c.expect.requisitions!);
      expect(got.reduce((n, r) => n + r.lines.length, 0)).toBe(c.expect.lines);
    }
    if (c.expect.outcome === 'either' && c.expect.requisitions !== undefined) expect(got).toHaveLength(c.expect.requisitions);
    for (const secret of c.expect.mustNotLeak ?? []) {
      const text = JSON.stringify({ got, value: result.status === 'fulfilled' ? result.value : (err as Error).message });
      expect(text.includes(secret), `${c.id}: ${JSON.stringify(secret)} leaked into the ingestion output`).toBe(false);
    }
    // No parser may unpack anything next to the file (zip entries named ../../x).
    expect((await readdir(dir)).filter((n) => /hardening-evil/.test(n))).toEqual([]);
  });
});

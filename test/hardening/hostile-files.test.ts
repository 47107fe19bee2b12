/**
 * Hostile files, first straight through ingestFile (refusal or rows as expected, never a crash, memory bounded),
 * then through the real pipeline (worker + inbox watcher + Redis + sandbox over HTTP) when it is there.
 */
import { existsSync } from 'node:fs';
import { appendFile, copyFile, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRefusedError, RfqSyncError } from '../../src/core/errors.ts';
import { ingestFile } from '../../src/ingest/ingest-file.ts';
import { loadProfiles, type MappingProfile } from '../../src/ingest/index.ts';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { listTree } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';
import { workbookText } from './outputs.ts';
import { recordFigure } from './figures.ts';
import { HOSTILE_LIMITS, hostileCases, type HostileCase } from './hostile-files.ts';
import { MB, withPeakRss } from './memory.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { parseProcessingName, type ProcessingName } from '../../src/queues/processing-name.ts';

/** Growth of resident memory allowed while one hostile file is read (the largest holds a 50 MB cell). */
const RSS_BOUND_MB = 400;

/**
 * Cases that expose a defect routed to its owner: kept out of the CI run until fixed;
 * `HARDENING_OPEN_DEFECTS=1 npm run test:hardening` runs them with their strict expectations. None open now: the four
 * found by this suite (a million empty lines read slowly, a backslash name never taken, a false "duplicate" of a file
 * still being refused, a 50 MB product name accepted) are fixed and their cases run again.
 */
export const OPEN_DEFECTS = new Set<string>();
/** Open defects of the pipeline part only (the file itself reads fine). */
export const OPEN_PIPELINE_DEFECTS = new Set<string>();
const runDefects = process.env.HARDENING_OPEN_DEFECTS === '1';
/** HARDENING_ONLY=id,id runs those cases alone (to find which file a figure comes from). */
const only = process.env.HARDENING_ONLY?.split(',');
const cases = hostileCases().filter((c) => (runDefects || !OPEN_DEFECTS.has(c.id)) && (!only || only.includes(c.id)));

describe('hostile files straight through ingestFile', () => {
  let dir: string;
  let profiles: MappingProfile[];
  const results: Array<{ id: string; outcome: string; ms: number; rssMb: number; ok: boolean }> = [];

  beforeAll(async () => {
    dir = tempDir('rfq-sync-hostile-');
    // The shipped profiles, as a worker would load them: the files follow mappings/generic.yaml.
    profiles = await loadProfiles(join(PACKAGE_ROOT, 'mappings'));
  });
  afterAll(async () => {
    const n = (o: string) => results.filter((r) => r.outcome === o).length;
    const parked = hostileCases().length - cases.length;
    recordFigure({
      section: 'hostile files',
      name: 'files generated (run)',
      value: `${hostileCases().length} (${cases.length})${parked ? `, ${parked} parked as open defects` : ''}`,
      target: '>= 40',
      ok: cases.length >= 40,
    });
    recordFigure({
      section: 'hostile files',
      name: 'ingestFile: refused / read / crashed',
      value: `${n('refused')} / ${n('read')} / ${n('crashed')}`,
      target: 'crashed 0',
      ok: n('crashed') === 0,
    });
    const peak = Math.max(0, ...results.map((r) => r.rssMb));
    const worst = results.find((r) => r.rssMb === peak);
    recordFigure({
      section: 'hostile files',
      name: `ingestFile: worst RSS growth (${worst?.id ?? '-'})`,
      value: `${peak} MB`,
      target: `<= ${RSS_BOUND_MB} MB`,
      ok: peak <= RSS_BOUND_MB,
    });
    const slow = Math.max(0, ...results.map((r) => r.ms));
    recordFigure({
      section: 'hostile files',
      name: `ingestFile: slowest file (${results.find((r) => r.ms === slow)?.id ?? '-'})`,
      value: `${(slow / 1000).toFixed(1)} s`,
      ok: true,
    });
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
    const outcome =
      err === undefined ? 'read' : err instanceof RfqSyncError && err.kind === 'data' ? 'refused' : 'crashed';
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
      expect(result.value.heldRequisitions, JSON.stringify(result.value.problems.slice(0, 3))).toBe(c.expect.held ?? 0);
      expect(result.value.requisitions).toBe(c.expect.requisitions);
      expect(got).toHaveLength(c.expect.requisitions!);
      expect(got.reduce((n, r) => n + r.lines.length, 0)).toBe(c.expect.lines);
    }
    if (c.expect.outcome === 'either' && c.expect.requisitions !== undefined)
      expect(got).toHaveLength(c.expect.requisitions);
    for (const secret of c.expect.mustNotLeak ?? []) {
      const text = JSON.stringify({
        got,
        value: result.status === 'fulfilled' ? result.value : (err as Error).message,
      });
      expect(text.includes(secret), `${c.id}: ${JSON.stringify(secret)} leaked into the ingestion output`).toBe(false);
    }
    // No parser may unpack anything next to the file (zip entries named ../../x).
    expect((await readdir(dir)).filter((n) => /hardening-evil/.test(n))).toEqual([]);
  });
});

describe('hostile files through a worker process, the watched inbox, Redis and the sandbox', () => {
  const pipeline = usePipeline({ scope: 'file', appendonly: false, sandbox: { seed: 6 }, tag: 'hostile-pipeline' });
  let service: WorkerChild;

  beforeAll(async () => {
    service = await pipeline.spawnWorker(
      pipeline.workerEnv({
        MAX_FILE_BYTES: String(HOSTILE_LIMITS.maxFileBytes),
        MAX_XLSX_UNCOMPRESSED_BYTES: String(HOSTILE_LIMITS.maxXlsxUncompressedBytes),
        MAX_XLSX_ENTRIES: String(HOSTILE_LIMITS.maxXlsxEntries),
        MAX_IN_MEMORY_READ_BYTES: String(HOSTILE_LIMITS.maxInMemoryBytes),
        // Big hostile files keep an ingest job busy for seconds: a lock that outlives them.
        JOB_LOCK_MS: '30000',
        // the growing file is appended every 250 ms: 4 times that, not 400 ms, for a loaded machine's late timers
        FILE_STABLE_MS: '1000',
        STALLED_CHECK_MS: '5000',
        LOG_LEVEL: 'warn',
      }),
    );
  });
  afterAll(async () => {
    await service?.kill('SIGTERM');
  });

  it('every file ends in archive/ or failed/ with a report naming the cause; the worker stays up; the service gets whole requisitions only', async () => {
    const { redis, sandbox, data, prefix, staging } = pipeline;
    const cases = hostileCases().filter(
      (c) =>
        (runDefects || (!OPEN_DEFECTS.has(c.id) && !OPEN_PIPELINE_DEFECTS.has(c.id))) && (!only || only.includes(c.id)),
    );
    const pid = service.child.pid!;
    // What each readable file holds, straight from ingestFile: the requisitions the service must end up with.
    const profiles = await loadProfiles(join(PACKAGE_ROOT, 'mappings'));
    const expected = new Map<string, Requisition[]>();
    for (const c of cases) {
      if (c.id === 'over-size-limit' || c.id.startsWith('zip-bomb')) continue;
      const p = await c.write(join(staging, 'direct', c.id));
      const got: Requisition[] = [];
      await ingestFile(
        p,
        { profiles, limits: HOSTILE_LIMITS, displayName: c.fileName },
        async (r) => void got.push(r),
      ).catch(() => undefined);
      await rm(join(staging, 'direct', c.id), { recursive: true, force: true });
      expected.set(c.id, got);
    }

    // Drop: whole files by rename (as a copy tool finishing would), plus the awkward ones.
    const t0 = Date.now();
    const growers: Promise<void>[] = [];
    // the growing file last: the big files are built in this process, and while one is (seconds, under load) the
    // growing file's next part would wait and it would look finished (taken twice, seen in CI)
    const growingLast = [...cases.filter((c) => c.drop !== 'growing'), ...cases.filter((c) => c.drop === 'growing')];
    for (const c of growingLast) {
      const src = await c.write(join(staging, c.id));
      const dst = join(data.inbox, c.fileName);
      if (c.drop === 'growing') {
        await rm(src);
        const parts = c.parts!;
        await writeFile(dst, parts[0]!);
        growers.push(
          (async () => {
            for (const part of parts.slice(1)) {
              // sleep: shorter than FILE_STABLE_MS: the file never looks finished until the copy ends
              await sleep(250);
              await appendFile(dst, part);
            }
          })(),
        );
      } else if (c.drop === 'twin') {
        await copyFile(src, join(data.inbox, c.fileName.replace('-a.', '-b.')));
        await rename(src, dst);
      } else {
        await rename(src, dst);
        if (c.drop === 'deleted') await rm(dst, { force: true });
      }
    }
    await Promise.all(growers);

    const ignored = cases.filter((c) => c.expect.ignoredByInbox);
    const queues = openQueues(redis.url, prefix);
    try {
      await waitFor(
        'the inbox and processing/ to empty and the ingest and create-rfq queues to drain',
        async () =>
          (await readdir(data.inbox)).length === ignored.length &&
          (await readdir(data.processing)).length === 0 &&
          unfinished(await queues.counts(), ['ingest', 'createRfq']) === 0,
        240_000,
        500,
        async () =>
          `inbox ${JSON.stringify(await readdir(data.inbox))}, processing ${JSON.stringify(await readdir(data.processing))}, queues ${JSON.stringify(await queues.counts())}, worker output: ${service.output().slice(-2000)}`,
      );
    } finally {
      await queues.close();
    }
    const settleMs = Date.now() - t0;

    // Where each file went, by its original name (processing names are `<token>_<original>`).
    const finished: Array<{ where: 'archive' | 'failed'; p: ProcessingName }> = [];
    for (const where of ['archive', 'failed'] as const) {
      for (const n of await readdir(where === 'archive' ? data.archive : data.failed)) {
        const p = parseProcessingName(n);
        expect(p, `${where}/${n} is not a name the inbox made`).toBeDefined();
        finished.push({ where, p: p! });
      }
    }
    const reports = await readdir(data.reports);
    const matches = (c: HostileCase, original: string) => {
      if (original === c.fileName) return true;
      const ext = extname(original);
      return (
        original.length < c.fileName.length &&
        c.fileName.endsWith(ext) &&
        c.fileName.startsWith(original.slice(0, original.length - ext.length))
      );
    };
    const problems: string[] = [];
    for (const c of cases) {
      const names = c.drop === 'twin' ? [c.fileName, c.fileName.replace('-a.', '-b.')] : [c.fileName];
      for (const name of names) {
        const ends = finished.filter((f) => matches({ ...c, fileName: name }, f.p.original));
        if (c.drop === 'deleted' && ends.length === 0) continue; // gone before it was taken: nothing to do
        if (c.expect.ignoredByInbox) {
          if (ends.length > 0)
            problems.push(`${c.id}: the inbox should have left it alone, found in ${ends[0]!.where}/`);
          continue;
        }
        if (ends.length !== 1) {
          problems.push(`${c.id} (${JSON.stringify(name)}): found ${ends.length} times in archive/failed`);
          continue;
        }
        const end = ends[0]!;
        if (c.expect.outcome !== 'either' && end.where !== c.expect.outcome)
          problems.push(`${c.id}: in ${end.where}/, expected ${c.expect.outcome}/`);
        const report = reports.filter((r) => r.includes(end.p.token));
        if (report.length !== 1) {
          problems.push(`${c.id}: ${report.length} reports for take ${end.p.token}`);
          continue;
        }
        const text = (await workbookText(join(data.reports, report[0]!))).strings.join('\n');
        if (end.where === 'failed' && c.expect.cause && !c.expect.cause.test(text))
          problems.push(`${c.id}: report does not name the cause ${c.expect.cause}: ${text.slice(0, 300)}`);
        for (const secret of c.expect.mustNotLeak ?? [])
          if (text.includes(secret)) problems.push(`${c.id}: report leaks ${JSON.stringify(secret)}`);
      }
    }
    expect(problems).toEqual([]);

    // The service: exactly the requisitions of the files that were read, each whole and once.
    const rfqs = sandbox.control.listAll();
    const byExternalId = new Map<string, number>();
    for (const r of rfqs)
      for (const l of r.lines) byExternalId.set(l.external_id ?? '', (byExternalId.get(l.external_id ?? '') ?? 0) + 1);
    const want = new Map<string, number>(); // external_id -> lines in its requisition
    for (const c of cases) {
      const archived = finished.some((f) => f.where === 'archive' && matches(c, f.p.original));
      if (!archived || c.expect.createsNothing) continue;
      for (const r of expected.get(c.id) ?? []) for (const l of r.lines) want.set(l.external_id, r.lines.length);
    }
    const duplicated = [...byExternalId].filter(([, n]) => n > 1).map(([e]) => e);
    const missing = [...want.keys()].filter((e) => !byExternalId.has(e));
    const unexpected = [...byExternalId.keys()].filter((e) => !want.has(e));
    const partial = rfqs
      .filter((r) => r.lines.some((l) => want.get(l.external_id ?? '') !== r.lines.length))
      .map((r) => r._id);
    recordFigure({
      section: 'hostile files',
      name: 'pipeline: files settled (archive / failed)',
      value: `${finished.filter((f) => f.where === 'archive').length} / ${finished.filter((f) => f.where === 'failed').length} in ${(settleMs / 1000).toFixed(0)} s`,
      ok: true,
    });
    recordFigure({
      section: 'hostile files',
      name: 'pipeline: RFQs expected / created / duplicated',
      value: `${new Set([...want.keys()].map((e) => e.replace(/-[^-]*$/, ''))).size} req. / ${rfqs.length} / ${duplicated.length}`,
      target: 'dup 0',
      ok: duplicated.length === 0,
    });
    recordFigure({
      section: 'hostile files',
      name: 'pipeline: lines missing / unexpected / partial RFQs',
      value: `${missing.length} / ${unexpected.length} / ${partial.length}`,
      target: '0 / 0 / 0',
      ok: missing.length + unexpected.length + partial.length === 0,
    });
    expect(duplicated).toEqual([]);
    expect(missing).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(partial).toEqual([]);

    // The worker is the same process, still up; its peak memory stayed bounded.
    expect(service.alive()).toBe(true);
    expect(service.child.pid).toBe(pid);
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    recordFigure({
      section: 'hostile files',
      name: 'pipeline: worker peak RSS (VmHWM)',
      value: `${Math.round(hwm)} MB`,
      target: '<= 1024 MB',
      ok: hwm <= 1024,
    });
    expect(hwm).toBeLessThanOrEqual(1024);
    expect(service.output()).not.toMatch(/FATAL|heap out of memory|Unhandled|uncaught/i);

    // Nothing was written outside the configured folders, whatever the file names and zip entries said.
    const outside = (await listTree(data.jail)).filter(
      // besides the folders, only the worker's state-epoch marker (src/redis/state-epoch.ts), the data folder's identity (src/intake/intake-folder.ts) and the audit log's day files (src/audit/writer.ts) and its index (src/audit/audit-index.ts: SQLite, with its WAL and shared-memory files), which the `worker` command writes
      (f) =>
        !/^data\/(inbox|processing|archive|failed|outbox)\/|^data\/\.rfq-sync\/(epoch-hardening|folder)\.json$|^data\/audit\/\d{4}-\d{2}-\d{2}\.[\w.-]+\.jsonl$|^data\/audit\/index\.[\w.-]+\.sqlite(-wal|-shm)?$/.test(
          f,
        ),
    );
    expect(outside).toEqual([]);
    expect((await readdir(data.inbox)).sort()).toEqual(ignored.map((c) => c.fileName).sort());
    // outbox/overview.xlsx (or its temporary file while a poll rewrites it) is the one output of the outbox itself.
    const outboxDirs = (await listTree(data.outbox)).filter(
      (f) => f.split('/').length !== 2 && !/^\.?overview\.xlsx(\.[0-9a-f]{8}\.tmp)?$/.test(f),
    );
    expect(outboxDirs, 'every output sits directly in its outbox folder').toEqual([]);
    expect(existsSync(join(PACKAGE_ROOT, 'pwned'))).toBe(false);
    expect(existsSync('/tmp/hardening-evil-abs.txt')).toBe(false);
  });
});

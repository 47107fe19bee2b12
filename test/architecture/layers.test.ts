/**
 * Imports point one way, from the higher folders to the lower ones: bin -> app -> jobs -> src, and inside src from
 * the pipeline's stages down to their building blocks. A folder may import its own files and any lower folder; the
 * folders of one level may import each other (madge --circular keeps files free of cycles), except the stages: intake,
 * creation, tracking and awarding stand side by side and meet only through the queues. Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from '../helpers/sources.ts';

/** The pipeline's stages, in the order a requisition meets them: each imports the low folders only. */
const STAGES = ['src/intake', 'src/creation', 'src/tracking', 'src/awarding'];

/** Level of each folder, lowest first. */
const LEVELS: Array<[folder: string, level: number]> = [
  ['src/core', 0], // errors, logger, time zones, text folding, atomic writes, the requisition type
  ['src/queues', 1], // one module per queue: its name, payload schema, job ids, enqueue and options (the settings name them)
  ['src/settings', 1], // the configuration: schema, loader, secrets, Redis settings, each concern's fields
  ['src/sourcing', 2],
  ['src/sandbox', 2],
  ['src/ingest', 2],
  ['src/erp', 2], // the ERP's purchase-order files: output profiles, formats, the vendor cross-reference (pure)
  ['src/comparison', 2],
  ['src/redis', 2],
  ['src/notify', 2], // messages to people: channels, event kinds, routes, the notify queue's messages
  ['src/audit', 2], // the audit log: one line per step of a requisition, its reader and timelines
  ['src/account', 3], // the session with the service: auth gate, token, rate limiter, dialect store
  ['src/vendors', 3], // the account's vendor directory: its store in Redis and the category check
  ['src/requisitions', 3], // the requisition record: the create request, the record as read, a re-export's changes
  ['src/rfqs', 3], // the tracked RFQ record and its store, written by tracking and awarding
  ['src/outbox', 3], // what rfq-sync writes and keeps: retention, a full disk, done files
  ['src/worker', 4], // the worker context every job and command receives
  ...STAGES.map((s): [string, number] => [s, 5]),
  ['jobs', 6],
  ['app', 7],
  ['bin', 8],
];

function folderOf(file: string): string {
  const rel = relative(ROOT, file);
  const parts = rel.split('/');
  return parts[0] === 'src' && parts.length > 2 ? `src/${parts[1]}` : parts[0]!;
}
function levelOf(folder: string): number | undefined {
  return LEVELS.find(([f]) => f === folder)?.[1];
}
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every import of `files` that leaves its folder, as `from` and `to` folders with the files named. */
function crossings(files: Array<{ path: string; text: string }>) {
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(SPEC)]
      .map((m) => resolve(dirname(path), m[1]!))
      .filter((target) => folderOf(target) !== folderOf(path))
      .map((target) => ({
        from: folderOf(path),
        to: folderOf(target),
        line: `${relative(ROOT, path)} -> ${relative(ROOT, target)}`,
      })),
  );
}

/** Imports from one stage into another: the stages meet through the queues only. */
function betweenStages(edges: ReturnType<typeof crossings>): string[] {
  return edges.filter((e) => STAGES.includes(e.from) && STAGES.includes(e.to)).map((e) => e.line);
}

describe('layers', () => {
  const files = ['src', 'jobs', 'app', 'bin']
    .flatMap((d) => sources(join(ROOT, d)))
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const edges = crossings(files);
  const from = (folder: string) => edges.filter((e) => e.from === folder);

  it('every folder that holds code has a level', () => {
    const unknown = [...new Set(files.map((f) => folderOf(f.path)))].filter((f) => levelOf(f) === undefined);
    expect(unknown).toEqual([]);
  });

  it('no import goes from a lower folder to a higher one', () => {
    const upward = edges.filter((e) => {
      const [lf, lt] = [levelOf(e.from), levelOf(e.to)];
      return lt === undefined || lf === undefined || lt > lf;
    });
    expect(upward.map((e) => e.line)).toEqual([]);
  });

  it('the stages stand side by side: intake, creation, tracking and awarding import no other stage', () => {
    expect(betweenStages(edges)).toEqual([]);
  });

  it('awarding and tracking import no stage; tracking no creation module; outbox no intake module', () => {
    const stages = (folder: string) => from(folder).filter((e) => STAGES.includes(e.to) || e.to === 'jobs');
    expect(stages('src/awarding').map((e) => e.line)).toEqual([]);
    expect(stages('src/tracking').map((e) => e.line)).toEqual([]);
    expect(from('src/tracking').filter((e) => e.to === 'src/creation')).toEqual([]);
    expect(from('src/outbox').filter((e) => e.to === 'src/intake')).toEqual([]);
  });

  it('the check sees a stage importing another (it can fail)', () => {
    const at = (p: string) => join(ROOT, p);
    const planted = crossings([
      { path: at('src/tracking/a.ts'), text: "import { createIdempotencyStore } from '../creation/index.ts';" },
      { path: at('src/awarding/b.ts'), text: "import type { TrackingContext } from '../tracking/index.ts';" },
      { path: at('src/intake/c.ts'), text: "import { enqueueCreateRfq } from '../queues/index.ts';" },
      { path: at('src/creation/d.ts'), text: "import { requisitionRecords } from '../requisitions/index.ts';" },
    ]);
    expect(betweenStages(planted)).toEqual([
      'src/tracking/a.ts -> src/creation/index.ts',
      'src/awarding/b.ts -> src/tracking/index.ts',
    ]);
  });

  it('the sandbox is a separate service: it imports no folder of the client but src/core (its schemas could not drift)', () => {
    const crossing = from('src/sandbox').filter((e) => e.to !== 'src/core');
    expect(crossing.map((e) => e.line)).toEqual([]);
  });
});

/**
 * Imports point one way, from the higher folders to the lower ones: bin -> app -> jobs -> src, and inside src from
 * the pipeline's assembly down to its building blocks. A folder may import its own files and any lower folder; the
 * folders of one level may import each other (madge --circular keeps files free of cycles). Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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
  ['src/creation', 3],
  ['src/vendors', 3], // the account's vendor directory: its store in Redis and the category check
  ['src/intake', 4],
  ['src/worker', 4], // the worker context every job and command receives
  ['src/outbox', 5], // what rfq-sync writes and keeps: retention, a full disk, done files
  ['src/tracking', 6],
  ['jobs', 7],
  ['app', 8],
  ['bin', 9],
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

describe('layers', () => {
  const files = ['src', 'jobs', 'app', 'bin'].flatMap((d) => sources(join(ROOT, d)));

  it('every folder that holds code has a level', () => {
    const unknown = [...new Set(files.map(folderOf))].filter((f) => levelOf(f) === undefined);
    expect(unknown).toEqual([]);
  });

  it('no import goes from a lower folder to a higher one', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      for (const m of readFileSync(file, 'utf8').matchAll(SPEC)) {
        const target = resolve(dirname(file), m[1]!);
        const to = folderOf(target);
        if (to === from) continue;
        const [lf, lt] = [levelOf(from), levelOf(to)];
        if (lt === undefined || lf === undefined || lt > lf)
          upward.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the sandbox is a separate service: it imports no folder of the client but src/core (its schemas could not drift)', () => {
    const crossing = files
      .filter((f) => folderOf(f) === 'src/sandbox')
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(SPEC)]
          .map((m) => resolve(dirname(f), m[1]!))
          .filter((t) => !['src/sandbox', 'src/core'].includes(folderOf(t)))
          .map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`),
      );
    expect(crossing).toEqual([]);
  });
});

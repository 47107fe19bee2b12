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
  ['src', 0], // the files at the top of src: config, errors, logger, requisition, atomic writes
  ['src/settings', 0], // the configuration schema's fields, by concern
  ['src/queues', 0], // one module per queue: its name, payload schema, job ids, enqueue and options (the settings name them)
  ['src/sourcing', 1],
  ['src/sandbox', 1],
  ['src/ingest', 1],
  ['src/comparison', 1],
  ['src/redis', 1],
  ['src/notify', 1], // messages to people: channels, event kinds, routes, the notify queue's messages
  ['src/audit', 1], // the audit log: one line per step of a requisition, its reader and timelines
  ['src/creation', 2],
  ['src/vendors', 2], // the account's vendor directory: its store in Redis and the category check
  ['src/intake', 3],
  ['src/pipeline', 4],
  ['src/tracking', 5],
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

  it('the sandbox is a separate service: it imports no folder of the client (its schemas could not drift)', () => {
    const crossing = files
      .filter((f) => folderOf(f) === 'src/sandbox')
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(SPEC)]
          .map((m) => resolve(dirname(f), m[1]!))
          .filter((t) => !['src/sandbox', 'src'].includes(folderOf(t)))
          .map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`),
      );
    expect(crossing).toEqual([]);
  });
});

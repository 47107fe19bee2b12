/**
 * The reader table of docs/mapping.md ("What the readers handle"), generated from the format modules' list
 * (src/ingest/formats/all-formats.ts): per format how it is recognised, how it is read (and, read whole, how much
 * memory that takes), how its text is decoded, and the limits of its sheets and what happens at them.
 * `node scripts/readers-doc.ts --write` (`npm run docs:readers -- --write`) rewrites the block between the markers;
 * without `--write` it prints the table and exits 1 when the doc's block differs from it.
 * test/ingest/readers-doc.test.ts fails when the table is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UnexpectedError } from '../src/core/index.ts';
import { FORMATS, type FileFormat } from '../src/ingest/index.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOC_FILE = join('docs', 'mapping.md');
export const BEGIN = '<!-- BEGIN GENERATED: reader table (npm run docs:readers -- --write) -->';
export const END = '<!-- END GENERATED: reader table -->';

const n = (x: number): string => x.toLocaleString('en-US');

function read(f: FileFormat): string {
  const m = f.inMemory;
  return m
    ? `${f.doc.read}: about ${m.expansion} times ${m.of === 'file' ? 'its size' : 'its content uncompressed'}`
    : f.doc.read;
}

/** Its sheets' sizes by version, and what a sheet that fills the last row gets. */
function limits(f: FileFormat): string {
  if (f.limits.length === 0) return 'none (text has no sheet to fill)';
  const sizes = f.limits.map((l) => {
    const version = /\(([^)]*)\)$/.exec(l.what)?.[1];
    return `${n(l.rows)} rows × ${n(l.columns)} columns${version ? ` (${version})` : ''}`;
  });
  return `${sizes.join('; ')}; a sheet ending on the last row: its requisition held, and a note`;
}

export function readerTable(formats: readonly FileFormat[] = FORMATS): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = formats.map(
    (f) => `| ${[f.doc.title, f.doc.recognisedBy, read(f), f.doc.encodings, limits(f)].map(cell).join(' | ')} |`,
  );
  return [
    '| Format | Recognised by | Read | Text decoded by | Sheet limits, and at them |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The doc with its generated block replaced by the current table. */
export function renderDoc(current: string): string {
  const i = current.indexOf(BEGIN);
  const j = current.indexOf(END);
  if (i < 0 || j < i) throw new UnexpectedError(`${DOC_FILE} has no generated block (${BEGIN} ... ${END})`);
  return `${current.slice(0, i + BEGIN.length)}\n${readerTable()}\n${current.slice(j)}`;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const path = join(REPO_ROOT, DOC_FILE);
  const current = readFileSync(path, 'utf8');
  const next = renderDoc(current);
  if (process.argv.includes('--write')) {
    if (next !== current) writeFileSync(path, next);
    process.stdout.write(next === current ? `${DOC_FILE}: reader table already up to date\n` : `updated ${DOC_FILE}\n`);
  } else {
    process.stdout.write(`${readerTable()}\n`);
    if (next !== current) {
      process.stderr.write(`${DOC_FILE}: the reader table is stale; run npm run docs:readers -- --write\n`);
      process.exitCode = 1;
    }
  }
}

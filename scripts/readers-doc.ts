/**
 * The reader table of docs/mapping.md ("What the readers handle"), generated from the format modules' list
 * (src/ingest/formats/all-formats.ts): per format how it is recognised, how it is read (and, read whole, how much
 * memory that takes), how its text is decoded, and the limits of its sheets and what happens at them.
 * `node scripts/readers-doc.ts --write` (`npm run docs:readers -- --write`) rewrites the block between the markers;
 * without `--write` it prints the table and exits 1 when the doc's block differs from it.
 * test/ingest/readers-doc.test.ts fails when the table is stale.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMATS, type FileFormat } from '../src/ingest/index.ts';
import { replaceBlock, runGenerator, type GeneratedBlock } from './generated-block.ts';

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

const BLOCK: GeneratedBlock = {
  docFile: DOC_FILE,
  begin: BEGIN,
  end: END,
  what: 'reader table',
  command: 'npm run docs:readers',
};

/** The doc with its generated block replaced by the current table. */
export function renderDoc(current: string): string {
  return replaceBlock(current, BLOCK, readerTable());
}

if (process.argv[1] && import.meta.filename === process.argv[1]) runGenerator(REPO_ROOT, BLOCK, readerTable());

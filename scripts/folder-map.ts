/**
 * The folder map of docs/architecture.md, generated from the folders' entries: every `index.ts` under src/, app/ and
 * jobs/ (sub-folders too), one row per folder, sorted by path, with the first sentence of the `index.ts`'s opening
 * doc comment. `node scripts/folder-map.ts --write` (`npm run docs:folders -- --write`) rewrites the block between the
 * markers; without `--write` it prints the map and exits 1 when the doc's block differs from it.
 * test/architecture/folder-map.test.ts fails when the map is stale or a folder has no commented entry.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UnexpectedError } from '../src/core/index.ts';
import { replaceBlock, runGenerator, type GeneratedBlock } from './generated-block.ts';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The folders whose index.ts files make the map. */
export const MAP_ROOTS = ['src', 'app', 'jobs'] as const;
export const DOC_FILE = join('docs', 'architecture.md');
export const BEGIN = '<!-- BEGIN GENERATED: folder map (npm run docs:folders -- --write) -->';
export const END = '<!-- END GENERATED: folder map -->';

/** One folder of the map: its path with a trailing slash (`src/ingest/`), and its sentence (undefined: no comment). */
export interface FolderEntry {
  folder: string;
  summary: string | undefined;
}

/** Every folder under `dir` (itself included), as absolute paths, depth first. */
function foldersUnder(dir: string): string[] {
  const subs = readdirSync(dir)
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isDirectory());
  return [dir, ...subs.flatMap(foldersUnder)];
}

/** Every folder under the map's roots, as paths relative to `root` with `/` and a trailing slash. */
function folders(root: string): Array<{ abs: string; folder: string }> {
  return MAP_ROOTS.flatMap((r) => {
    const top = join(root, r);
    try {
      if (!statSync(top).isDirectory()) return [];
    } catch {
      return [];
    }
    return foldersUnder(top).map((abs) => ({ abs, folder: `${relative(root, abs).split(sep).join('/')}/` }));
  });
}

/**
 * The first sentence of a file's opening doc comment (the file starts with `/**`, blank lines aside), on one line;
 * undefined when the file opens with anything else. A sentence ends at `.`, `!` or `?` followed by the end of the
 * comment or by a space and a capital letter (so `docs/mapping.md`, `e.g.` or `0.3 s` do not end it).
 */
export function openingSentence(text: string): string | undefined {
  const m = /^\s*\/\*\*((?:(?!\*\/)[\s\S])*)\*\//.exec(text);
  if (!m) return undefined;
  const body = m[1]!
    .split('\n')
    .map((l) => l.replace(/^\s*\*(?!\/)\s?/, '').trim())
    .filter(Boolean)
    .join(' ')
    .trim();
  if (!body) return undefined;
  const end = /[.!?](?=\s+[A-Z]|\s*$)/.exec(body);
  return end ? body.slice(0, end.index + 1) : body;
}

/** Every folder that has an index.ts, sorted by path, with the first sentence of its opening comment. */
export function folderEntries(root = REPO_ROOT): FolderEntry[] {
  return folders(root)
    .filter(({ abs }) => isFile(join(abs, 'index.ts')))
    .map(({ abs, folder }) => ({ folder, summary: openingSentence(readFileSync(join(abs, 'index.ts'), 'utf8')) }))
    .sort(byFolder);
}

function byFolder(a: { folder: string }, b: { folder: string }): number {
  return a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0;
}

/**
 * Folders that must have an entry and have none that the map can read: a folder holding .ts files anywhere under
 * src/ or jobs/ (jobs/ itself too), or under a sub-folder of app/ (the top of src/ and of app/ are exempt).
 */
export function foldersWithoutEntry(root = REPO_ROOT): Array<{ folder: string; problem: string }> {
  const needs = folders(root).filter(
    ({ abs, folder }) =>
      folder !== 'src/' && folder !== 'app/' && readdirSync(abs).some((n) => n.endsWith('.ts') && isFile(join(abs, n))),
  );
  const out: Array<{ folder: string; problem: string }> = [];
  for (const { abs, folder } of needs) {
    const index = join(abs, 'index.ts');
    if (!isFile(index)) out.push({ folder, problem: 'no index.ts' });
    else if (!openingSentence(readFileSync(index, 'utf8')))
      out.push({ folder, problem: 'index.ts does not open with a /** ... */ comment' });
  }
  return out.sort(byFolder);
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The map as a markdown table; refused when an index.ts has no opening comment (it would have no sentence). */
export function folderTable(root = REPO_ROOT): string {
  const entries = folderEntries(root);
  const bare = entries.filter((e) => !e.summary).map((e) => `${e.folder}index.ts`);
  if (bare.length) throw new UnexpectedError(`no opening /** ... */ comment, so no line in the folder map: ${bare}`);
  const rows = entries.map((e) => `| \`${e.folder}\` | ${e.summary!.replace(/\|/g, '\\|')} |`);
  return ['| Folder | What it holds |', '|---|---|', ...rows].join('\n');
}

const BLOCK: GeneratedBlock = {
  docFile: DOC_FILE,
  begin: BEGIN,
  end: END,
  what: 'folder map',
  command: 'npm run docs:folders',
};

/** The doc with its generated block replaced by the current map. */
export function renderDoc(current: string, root = REPO_ROOT): string {
  return replaceBlock(current, BLOCK, folderTable(root));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) runGenerator(REPO_ROOT, BLOCK, folderTable());

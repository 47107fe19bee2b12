/**
 * Each folder is entered from outside only through its index.ts: a file outside a folder of src/ (or of its
 * sub-folders), of app/ or jobs/ imports that folder's index.ts and nothing else of it. So a folder's files can be
 * split, renamed and moved without its users noticing, and its index.ts says what it offers. Tests may import any
 * file (a unit test is of a file). And only an index.ts hands out names defined elsewhere: any other file exports
 * what it defines, so a name has one way in, its folder's index. Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from '../helpers/sources.ts';

/** Static imports, `import type`, re-exports (`export ... from`), dynamic `import()` and `import('...')` types. */
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Folders with an entry: every folder under src/ and app/ (not their top), and jobs/. */
function hasEntry(folder: string): boolean {
  const [top, sub] = folder.split('/');
  return top === 'jobs' || ((top === 'src' || top === 'app') && sub !== undefined);
}

/** `importer -> target` for every import that enters a folder other than through its index.ts. */
function sideDoors(files: Array<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = relative(ROOT, path);
    for (const m of text.matchAll(SPEC)) {
      const to = relative(ROOT, resolve(dirname(path), m[1]!));
      const folder = dirname(to);
      if (!hasEntry(folder) || from.startsWith(`${folder}/`) || basename(to) === 'index.ts') continue;
      out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

/** Names a file imports (default, named, `as` aliases), for telling a re-export from an export of its own. */
function importedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\bimport\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\b/g)) {
    if (m[1]) names.add(m[1]);
    for (const part of (m[2] ?? '').split(',')) {
      const name = part
        .replace(/\btype\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Files other than an index.ts that export a name they do not define (`export ... from`, or an imported name). */
function reexporters(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path }) => basename(path) !== 'index.ts')
    .filter(({ text }) => {
      if (/^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*['"]/m.test(text)) return true;
      const imported = importedNames(text);
      return [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*;/gm)].some((m) =>
        m[1]!.split(',').some((part) =>
          imported.has(
            part
              .replace(/\btype\s+/, '')
              .split(/\s+as\s+/)[0]!
              .trim(),
          ),
        ),
      );
    })
    .map(({ path }) => relative(ROOT, path));
}

describe('folder entries', () => {
  it('code outside a folder imports only its index.ts', () => {
    const files = ['src', 'jobs', 'app', 'bin']
      .flatMap((d) => sources(join(ROOT, d)))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(sideDoors(files)).toEqual([]);
  });

  it('only an index.ts re-exports: every other file exports what it defines', () => {
    const files = ['src', 'jobs', 'app', 'bin']
      .flatMap((d) => sources(join(ROOT, d)))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(reexporters(files)).toEqual([]);
  });

  it('the check sees a re-export, of either form (it can fail)', () => {
    const at = (p: string) => join(ROOT, p);
    const found = reexporters([
      { path: at('src/a/index.ts'), text: "export { x } from './x.ts';" },
      { path: at('src/a/b.ts'), text: "export type { Y } from './y.ts';" },
      { path: at('src/a/c.ts'), text: "import { z } from './z.ts';\nexport { z };" },
      { path: at('src/a/d.ts'), text: "import type { Lib as L } from 'lib';\nexport type { L };" },
      { path: at('src/a/e.ts'), text: 'const w = 1;\nexport { w };\nexport function fromColumn() {}' },
    ]);
    expect(found).toEqual(['src/a/b.ts', 'src/a/c.ts', 'src/a/d.ts']);
  });

  it('the check sees a side door, from any side (it can fail)', () => {
    const at = (p: string) => join(ROOT, p);
    const found = sideDoors([
      { path: at('src/tracking/a.ts'), text: "import { x } from '../comparison/model.ts';" },
      { path: at('src/tracking/b.ts'), text: "import type { X } from '../comparison/index.ts';" },
      { path: at('src/ingest/c.ts'), text: "export { y } from './suggest/columns.ts';" },
      { path: at('src/ingest/suggest/d.ts'), text: "import { z } from '../mapping-profile.ts';" },
      { path: at('app/cli.ts'), text: "const m = await import('./commands/trace.ts');" },
      { path: at('app/commands/e.ts'), text: "import { f } from '../cli-support.ts';" },
      { path: at('bin/rfq-sync.ts'), text: "await import('../app/cli.ts');" },
      { path: at('app/runtime/g.ts'), text: "import { h } from '../../jobs/worker.ts';" },
    ]);
    expect(found).toEqual([
      'src/tracking/a.ts -> src/comparison/model.ts',
      'src/ingest/c.ts -> src/ingest/suggest/columns.ts',
      'app/cli.ts -> app/commands/trace.ts',
      'app/runtime/g.ts -> jobs/worker.ts',
    ]);
  });
});

/**
 * Each folder is entered from outside only through its index.ts: a file outside a folder of src/ (or of its
 * sub-folders), of app/ or jobs/ imports that folder's index.ts and nothing else of it. So a folder's files can be
 * split, renamed and moved without its users noticing, and its index.ts says what it offers. Tests may import any
 * file (a unit test is of a file). Pure: reads the sources.
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

describe('folder entries', () => {
  it('code outside a folder imports only its index.ts', () => {
    const files = ['src', 'jobs', 'app', 'bin']
      .flatMap((d) => sources(join(ROOT, d)))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(sideDoors(files)).toEqual([]);
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

/**
 * Wiring is built where the worker is assembled (jobs/worker.ts asks each queue's processor factory once), never
 * cached behind the caller's back: a WeakMap keyed by a context or a client in a job file or the tracking hides
 * which instance a job gets, and two contexts on one Redis client would share one by accident. Pure: reads the sources.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Files that make a WeakMap (comments aside). */
function weakMapCaches(files: Array<{ path: string; text: string }>): string[] {
  const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return files.filter(({ text }) => /\bnew\s+WeakMap\b/.test(code(text))).map(({ path }) => relative(ROOT, path));
}

describe('wiring', () => {
  it('no job file and no tracking module caches its wiring in a WeakMap', () => {
    const files = [...sources(join(ROOT, 'jobs')), ...sources(join(ROOT, 'src/tracking'))].map((path) => ({
      path,
      text: readFileSync(path, 'utf8'),
    }));
    expect(weakMapCaches(files)).toEqual([]);
  });

  it('the check sees a cache and not a comment naming one (it can fail)', () => {
    const at = (name: string) => join(ROOT, name);
    const found = weakMapCaches([
      { path: at('jobs/a.ts'), text: 'const depsByContext = new WeakMap<WorkerContext, CreatorDeps>();' },
      { path: at('src/tracking/b.ts'), text: '/** seen before (new WeakMap) */\n// new WeakMap\nconst x = 1;' },
    ]);
    expect(found).toEqual(['jobs/a.ts']);
  });
});

/**
 * The order test files start in: the longest first, so the short ones fill the workers at the end instead of a long
 * one starting last and running alone (the suite's slowest files are small: vitest's fallback order, the largest file
 * first, started them at the end). A file's duration is the one vitest measured in an earlier run on this checkout
 * (its cache), else the one in test/durations.json (measured on a clean clone; refresh it after a full run with
 * `node test/helpers/slow-first.ts`). A file with neither is new: it starts before the others, larger files first,
 * as it may be long (one of 76 s missing from the table started last and ran alone at the end of CI), where a short
 * file starting early costs the long ones only its own few seconds.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATIONS_FILE = join(ROOT, 'test', 'durations.json');

/** Seconds per test file (path from the repository's root), as measured. */
function recorded(): Record<string, number> {
  return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
}

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const table = recorded();
    const seconds = (f: TestSpecification): number | undefined => {
      const cached = this.ctx.cache.getTestSpecificationResult(f)?.duration;
      return cached !== undefined ? cached / 1000 : table[relative(ROOT, f.moduleId)];
    };
    const known = sorted.filter((f) => seconds(f) !== undefined).sort((a, b) => seconds(b)! - seconds(a)!);
    return [...sorted.filter((f) => seconds(f) === undefined), ...known];
  }
}

/** Rewrite test/durations.json from vitest's cache of the last runs (every file: a file missing is taken for new). */
function refresh(): void {
  const cacheDir = join(ROOT, 'node_modules', '.vite', 'vitest');
  const measured: Record<string, number> = {};
  for (const d of readdirSync(cacheDir)) {
    const results = JSON.parse(readFileSync(join(cacheDir, d, 'results.json'), 'utf8')) as {
      projects: Record<string, { files: Record<string, { duration: number }> }>;
    };
    for (const p of Object.values(results.projects))
      for (const [file, r] of Object.entries(p.files)) measured[file] = Math.round(r.duration / 100) / 10;
  }
  const kept = Object.entries(measured).sort(([, a], [, b]) => b - a);
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
  console.log(`${DURATIONS_FILE}: ${kept.length} files`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) refresh();

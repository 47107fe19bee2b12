/**
 * Temporary folders for tests, one kit: `tempDir()` makes a fresh folder under the system's temp folder and removes
 * it after the test that made it (in a test or a beforeEach hook: onTestFinished), or after the file's tests when
 * made outside a test (at file level, in a describe body or a beforeAll hook: `removeFoldersOfTheFile`, which
 * test/helpers/each-file.ts runs after every file). A helper that owns a folder's lifetime (a pipeline's data folder,
 * removed with its clean-ups) makes it with `makeTempDir()` and removes it itself. No test file calls mkdtemp
 * (test/architecture/test-kit.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Folders made outside a test, removed after the file's tests. */
const leftForTheFile: string[] = [];

/** Remove the folders made outside a test (after a file's tests; one module may serve many files in a worker). */
export function removeFoldersOfTheFile(): void {
  for (const dir of leftForTheFile.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh folder `<parent>/<prefix>XXXXXX` (parent: the system's temp folder) that the caller removes. */
export function makeTempDir(prefix = 'rfq-test-', parent = tmpdir()): string {
  return mkdtempSync(join(parent, prefix));
}

/** A fresh folder, removed after the test that made it (or after the file's tests when made outside a test). */
export function tempDir(prefix = 'rfq-test-', parent = tmpdir()): string {
  const dir = makeTempDir(prefix, parent);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    leftForTheFile.push(dir); // not inside a test
  }
  return dir;
}

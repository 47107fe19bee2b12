/**
 * Run before each test file (vitest's setupFiles, in every config): what the kit does per file. A worker process may
 * run many files one after another (`isolate: false`), so a helper module is loaded once for all of them, and its
 * per-file work is registered here, where it is registered again for each file.
 */
import { afterAll } from 'vitest';
import { removeFoldersOfTheFile } from './temp-dir.ts';

afterAll(removeFoldersOfTheFile);

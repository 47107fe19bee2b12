import { defineConfig } from 'vitest/config';
import { SlowFirst } from './test/helpers/slow-first.ts';

export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // what the test kit does per file (test/helpers/each-file.ts)
    setupFiles: ['test/helpers/each-file.ts'],
    // Two files at a time: the suite mostly waits (the autopilot, polls, settle times; one worker process per file
    // doing the CPU work), 0.4 of a core in a row on 2 cores. Everything a file measures is its own process's.
    fileParallelism: true,
    maxWorkers: 2,
    // the longest files first (test/helpers/slow-first.ts, test/durations.json): the soaks, faults, hostile files...
    sequence: { sequencer: SlowFirst },
    // Prints the summary table of figures after the last file (test/hardening/global-setup.ts).
    globalSetup: ['test/hardening/global-setup.ts'],
    // Memory bounds are measured after a forced collection.
    execArgv: ['--expose-gc'],
  },
});

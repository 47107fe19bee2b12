import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The soak files first: each is most of the suite's time, so they start at once and the other files fill the second
 * worker beside them (a clean checkout has no timings from an earlier run to order by).
 */
class SoakFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const soak = (f: TestSpecification) => /\/soak-[^/]+\.test\.ts$/.test(f.moduleId);
    return [...sorted.filter(soak), ...sorted.filter((f) => !soak(f))];
  }
}

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
    sequence: { sequencer: SoakFirst },
    // Prints the summary table of figures after the last file (test/hardening/global-setup.ts).
    globalSetup: ['test/hardening/global-setup.ts'],
    // Memory bounds are measured after a forced collection.
    execArgv: ['--expose-gc'],
  },
});

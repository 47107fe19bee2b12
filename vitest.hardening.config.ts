import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // Prints the summary table of figures after the last file (test/hardening/global-setup.ts).
    globalSetup: ['test/hardening/global-setup.ts'],
    // Memory bounds are measured after a forced collection.
    execArgv: ['--expose-gc'],
  },
});

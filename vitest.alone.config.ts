import { defineConfig } from 'vitest/config';

/**
 * Tests that measure arrival times at the sandbox (proof 5: the rate limit is never exceeded in any 1 s window, as
 * the service would see it) run alone, after the main suite: another test file running beside them on a 2-core
 * machine delays calls between the permit and the wire and makes the measurement about the machine, not the code.
 */
export const ALONE = [
  'test/creation/proof-storms.test.ts',
  'test/creation/rate-limit-all-calls.test.ts',
  // issue 35: priority reads and the webhook flood, measured at the sandbox
  'test/creation/lag-probe-priority.test.ts',
  'test/tracking/webhook-flood.test.ts',
];

export default defineConfig({
  test: {
    include: ALONE,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // what the test kit does per file (test/helpers/each-file.ts)
    setupFiles: ['test/helpers/each-file.ts'],
    fileParallelism: false,
  },
});

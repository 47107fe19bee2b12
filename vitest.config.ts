import { defineConfig } from 'vitest/config';
import { ALONE } from './vitest.alone.config.ts';
import { SlowFirst } from './test/helpers/slow-first.ts';

// Tests that need Redis start their own redis-server on a free port (test/helpers/redis.ts);
// the timing-sensitive proofs run alone after it (vitest.alone.config.ts); the hardening suite runs apart (vitest.hardening.config.ts, `npm run test:hardening`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/hardening/**', 'node_modules/**', ...ALONE],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs many files one after another, each file's modules loaded once for all (isolate: false):
    // a fresh process per file cost 0.45 CPU-seconds more per file (62 files of ingest, comparison, sourcing and
    // architecture: 28 s instead of 67 s, 39 CPU-s instead of 67; the whole suite 255 CPU-s instead of 390). Files
    // clean up what they start (the kit's use* helpers); what a helper does per file is in test/helpers/each-file.ts.
    isolate: false,
    // what the test kit does per file (test/helpers/each-file.ts)
    setupFiles: ['test/helpers/each-file.ts'],
    fileParallelism: true,
    // The suite waits more than it computes (workers, Redis, the sandbox's latencies): at 2 files at a time it used
    // 40% of a 2-core machine (137 s CPU in 188 s). 3 at a time on the same machine: 132 s instead of 188 s.
    maxWorkers: 3,
    // the longest files first (test/helpers/slow-first.ts): a long file starting last ran alone at the end
    sequence: { sequencer: SlowFirst },
  },
});

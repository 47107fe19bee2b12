import { defineConfig } from 'vitest/config';
import { SlowFirst } from './test/helpers/slow-first.ts';

/**
 * CI's run (.ci/test): the main suite (vitest.config.ts) and the hardening suite (vitest.hardening.config.ts) as two
 * projects of one run, each with its own settings (time-outs, isolation, the hardening figures): the same files and
 * assertions as `npm test` and `npm run test:hardening`. One pool of workers for both, the longest files first across
 * both (test/helpers/slow-first.ts), where the two suites side by side, each with its own workers (3 and 2), left a
 * suite's workers idle once it was done while the other still ran.
 */
// Six files at a time on 2 cores: they mostly wait (workers, Redis, the sandbox, timers); the suites' CPU is about
// 480 CPU-seconds (main 270, hardening 210).
const WORKERS = 6;

export default defineConfig({
  test: {
    projects: [
      { extends: './vitest.config.ts', test: { name: 'main', maxWorkers: WORKERS } },
      { extends: './vitest.hardening.config.ts', test: { name: 'hardening', maxWorkers: WORKERS } },
    ],
    maxWorkers: WORKERS,
    sequence: { sequencer: SlowFirst },
  },
});

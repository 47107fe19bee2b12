import { defineConfig } from 'vitest/config';

// Tests that need Redis start their own redis-server on a free port (test/helpers/redis-server.ts);
// the hardening suite runs apart (vitest.hardening.config.ts, `npm run test:hardening`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/hardening/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

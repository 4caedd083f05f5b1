import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Test files share a worker's module cache instead of importing the daemon afresh each
    // (no test relies on module state; the suite runs the same either way, about a third faster).
    isolate: false,
    // e2e tests spawn the daemon; two cores, so keep parallelism modest.
    maxWorkers: 2,
  },
});

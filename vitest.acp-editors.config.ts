import { defineConfig } from 'vitest/config';

// `npm run check:acp-editors`: docs/editors.md's configurations in their real editors
// (test/acp-editors/acp-editor-bed.ts says what they need). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/acp-editors/**/*.check.ts'],
    testTimeout: 180_000,
    hookTimeout: 30_000,
    // Each check runs an editor, a bridge and a daemon: one at a time on two cores.
    maxWorkers: 1,
    fileParallelism: false,
  },
});

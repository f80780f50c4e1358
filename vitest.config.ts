import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run against the TypeScript sources of sibling packages (the `content-analysis:source` export condition), not their
  // build output, so a stale dist/ can never make a test pass or fail.
  resolve: {
    conditions: ['content-analysis:source', 'module', 'node', 'development|production'],
  },
  ssr: {
    resolve: {
      conditions: ['content-analysis:source', 'module', 'node', 'development|production'],
      externalConditions: ['content-analysis:source'],
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

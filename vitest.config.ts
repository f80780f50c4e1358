import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, not their build output.
    conditions: ['source'],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

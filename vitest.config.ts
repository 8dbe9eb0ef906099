import { defineConfig } from 'vitest/config';

// Unit and API tests (`*.test.ts` beside the code). Browser tests live in e2e/ and run separately.
export default defineConfig({
  test: {
    include: ['packages/**/src/**/*.test.ts', 'apps/server/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

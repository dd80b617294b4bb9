import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts', 'shared/**/*.test.ts', 'server/**/*.test.ts', 'seeds/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'electron/**/*.test.ts'],
    environment: 'node',
    // finds (or installs) the Chromium the browser tests drive, before any test file starts
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});

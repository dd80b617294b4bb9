import { defineConfig } from 'vitest/config';

const ALL = ['e2e/**/*.test.ts', 'shared/**/*.test.ts', 'server/**/*.test.ts', 'seeds/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'electron/**/*.test.ts'];

/**
 * Suites that run a second time with central on PostgreSQL (KITTING_TEST_STORE=pg): every module's route
 * tests, the HTTP layer, central sync routes and the randomized sync simulation. The store contract tests
 * cover both stores within one run (server/kitting/store/*.test.ts).
 */
const ON_POSTGRES = ['server/kitting/modules/**/*.test.ts', 'server/kitting/tests/**/*.test.ts', 'server/kitting/sync/*.routes.test.ts', 'server/kitting/sync/sync.sim.test.ts'];

/** The Conversational Agent Platform's suites run a second time with its database on PostgreSQL (AGENTS_TEST_STORE=pg). */
const AGENTS_ON_POSTGRES = ['server/agents/**/*.test.ts'];

// The documented variable for an existing test database; the core's global setup reads the neutral name.
if (process.env.KITTING_TEST_DATABASE_URL && !process.env.TEST_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.KITTING_TEST_DATABASE_URL;

/** The Publishing Studio's suites run a second time with its database on PostgreSQL (STUDIO_TEST_STORE=pg). */
const STUDIO_ON_POSTGRES = ['server/studio/**/*.test.ts', 'e2e/link-pages.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // Generous limits: a test's outcome never depends on how busy the machine is (a 2-core machine running
    // other suites made password hashing and browser steps pass 20 s; no test asserts time).
    testTimeout: 60000,
    hookTimeout: 90000,
    // Chromium for the browser tests and PostgreSQL for the `pg` pass, found or installed before any test file starts
    globalSetup: ['e2e/global-setup.ts', 'server/core/testing/pg-global-setup.ts'],
    // Every success body a route sends in a test must parse against its route's response schema
    setupFiles: ['server/core/testing/response-contracts.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ALL } },
      // Every write is a round trip to PostgreSQL: bulk routes (1,000 devices) get more time than on SQLite.
      { extends: true, test: { name: 'pg', include: ON_POSTGRES, env: { KITTING_TEST_STORE: 'pg' }, testTimeout: 60000, hookTimeout: 90000 } },
      { extends: true, test: { name: 'agents-pg', include: AGENTS_ON_POSTGRES, env: { AGENTS_TEST_STORE: 'pg' }, testTimeout: 60000, hookTimeout: 90000 } },
      { extends: true, test: { name: 'studio-pg', include: STUDIO_ON_POSTGRES, env: { STUDIO_TEST_STORE: 'pg' }, testTimeout: 60000, hookTimeout: 90000 } },
    ],
  },
});

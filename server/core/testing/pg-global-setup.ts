/**
 * Vitest global setup: every run has a PostgreSQL database for the suites that run against
 * PostgreSQL (TEST_DATABASE_URL, or a throwaway cluster stopped after the run).
 * The URL reaches the test workers as TEST_DATABASE_URL.
 */
import { provisionPostgres } from './pg-cluster.testkit';

export default async function setup(): Promise<() => void> {
  const cluster = await provisionPostgres((line) => console.log(line));
  process.env.TEST_DATABASE_URL = cluster.url;
  return () => cluster.stop();
}

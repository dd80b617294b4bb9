import { readConfig, type Config } from '../server-config';

/** The kitting server's configuration for tests and benchmarks: no log, temp paths are the caller's business. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...readConfig({ NODE_ENV: 'test' }), log: false, workspacesPerIpHour: 10_000, ...overrides };
}

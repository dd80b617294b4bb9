import { readAgentsConfig, type AgentsConfig } from './config';

/** The agent platform's configuration for tests and benchmarks: fresh folder, no model keys, no SMTP. */
export function testAgentsConfig(dataDir: string, over: Partial<AgentsConfig> = {}): AgentsConfig {
  return { ...readAgentsConfig({}), dataDir, anthropicKey: null, openaiKey: null, smtpUrl: null, ...over };
}

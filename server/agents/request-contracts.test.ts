import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contractModules, exportedSchemas, ownRequestSchemas } from '../core/testing/request-contracts.testkit';
import { startAgentsServer, type AgentsTestServer } from './harness.testkit';

let server: AgentsTestServer;
let shared: Set<z.ZodType>;
beforeAll(async () => {
  server = await startAgentsServer();
  shared = exportedSchemas(await contractModules(['agents']));
});
afterAll(() => server.close());

describe('request contracts (agent platform)', () => {
  it('every route takes its body, query and params schemas from shared/api/contracts/agents-*.ts', () => {
    expect(shared.size).toBeGreaterThan(100);
    expect(server.routes.filter((r) => r.body || r.query || r.params).length).toBeGreaterThan(100);
    expect(ownRequestSchemas(server.routes, shared)).toEqual([]);
  });
});

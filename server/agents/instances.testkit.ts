import type { Server } from 'node:http';
import { createAgentsApp } from './app';
import { testAgentsConfig } from './config.testkit';
import type { AgentsContext } from './context';
import type { AgentsTestServer } from './harness.testkit';

/** A second platform instance beside a test server: its own app and connection pool, the same data folder and database. */
export interface SecondInstance {
  base: string;
  ctx: AgentsContext;
  close: () => Promise<void>;
}

/** Starts a second instance on `t`'s data folder (its keys) and database: a second process in all but its address space. */
export async function startSecondInstance(t: AgentsTestServer): Promise<SecondInstance> {
  const b = await createAgentsApp({ config: testAgentsConfig(t.dir, { trustProxy: 1, databaseUrl: t.ctx.config.databaseUrl }), log: () => {} });
  const server: Server = await new Promise((resolve) => {
    const s = b.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const addr = server.address();
  return {
    base: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    ctx: b.ctx,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await b.close();
    },
  };
}

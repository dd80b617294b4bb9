import { mkdirSync } from 'node:fs';
import { createApp } from './app';
import { readConfig } from '../core/config';
import { openStore } from '../core/store/open';
import { startSync, stopSync } from './sync/start';

/** Headless entry: read env, migrate, seed, listen on 127.0.0.1, close cleanly on SIGTERM. */
async function main(): Promise<void> {
  const config = readConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const { store, secret, close } = await openStore(config);
  const { app, ctx } = await createApp({ store, config, secret });
  await startSync(ctx);

  const server = app.listen(config.port, '127.0.0.1', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    console.log(`listening on http://127.0.0.1:${port}`);
  });
  server.on('error', (err) => {
    console.error(`cannot listen on 127.0.0.1:${config.port}: ${err.message}`);
    void close().finally(() => process.exit(1));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    void stopSync(ctx).finally(() => {
      server.close(() => {
        void close().finally(() => process.exit(0));
      });
      server.closeAllConnections();
    });
    setTimeout(() => {
      void close().finally(() => process.exit(0));
    }, 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

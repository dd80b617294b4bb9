import { mkdirSync } from 'node:fs';
import { readConfig } from './server-config';
import { openStore } from './store/open';
import { boot } from './boot';

/** Headless entry: read env, migrate, seed, listen on 127.0.0.1, close cleanly on SIGTERM. */
async function main(): Promise<void> {
  const config = readConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const { store, secret, close: closeStore } = await openStore(config);
  const running = await boot({ store, config, secret, port: config.port, closeStore, syncArgv: process.argv.slice(2) });
  console.log(`listening on ${running.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    void running.close().finally(() => process.exit(0));
    // a connection or the sync loop that does not end is not waited for beyond 5 s
    setTimeout(() => void Promise.resolve(closeStore()).finally(() => process.exit(0)), 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

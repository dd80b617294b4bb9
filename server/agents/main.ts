import { createAgentsApp } from './app';
import { readAgentsConfig } from './config';

/** `npm run agents`: read env, migrate, listen on 127.0.0.1, exit 0 on SIGTERM. */
async function main(): Promise<void> {
  const config = readAgentsConfig();
  const { app, close } = await createAgentsApp({ config });
  const server = app.listen(config.port, '127.0.0.1', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    console.log(`listening on http://127.0.0.1:${port}`);
  });
  server.on('error', (err) => {
    console.error(`cannot listen on 127.0.0.1:${config.port}: ${err.message}`);
    process.exit(1);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      void close().finally(() => process.exit(0));
    });
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});

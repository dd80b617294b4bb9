import type { Server } from 'node:http';
import { createStudioApp } from './app';
import { readStudioConfig } from './config';

/** `npm run studio`: read env, migrate, listen on 127.0.0.1, exit 0 on SIGTERM. */
async function main(): Promise<void> {
  const config = readStudioConfig();
  const { app, ctx } = await createStudioApp({ config });
  const server: Server = app.listen(config.port, '127.0.0.1', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    ctx.publicUrl = process.env.STUDIO_PUBLIC_URL?.replace(/\/+$/, '') || `http://127.0.0.1:${port}`;
    console.log(`listening on http://127.0.0.1:${port}`);
  });
  server.on('error', (err) => {
    console.error(`cannot listen on 127.0.0.1:${config.port}: ${err.message}`);
    void ctx.database.close().finally(() => process.exit(1));
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close(() => void ctx.database.close().finally(() => process.exit(0)));
    server.closeAllConnections();
    setTimeout(() => void ctx.database.close().finally(() => process.exit(0)), 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

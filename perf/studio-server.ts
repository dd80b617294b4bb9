/**
 * Benchmark server (not a test, not production): the studio as its own process over the store its
 * environment names (STUDIO_DATABASE_URL or STUDIO_DATA_DIR), with an instant generation platform, and
 * the event-loop delay of this process reported to the parent over IPC ('reset' → starts a fresh
 * histogram and CPU count, 'report' → {p50, p99, max, cpuMs} in ms: cpuMs is this process's user + system time since 'reset').
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createStudioApp } from '../server/studio/app';
import { readStudioConfig } from '../server/studio/config';
import type { StudioContext } from '../server/studio/context';
import { instantPlatform } from './studio-instant-platform';

async function main(): Promise<void> {
  const config = { ...readStudioConfig(), port: 0, log: false };
  let ctxRef: StudioContext | null = null;
  const { app, ctx } = await createStudioApp({ config, platform: instantPlatform(() => ctxRef!, join(config.dataDir, 'platform')) });
  ctxRef = ctx;
  const server = app.listen(0, '127.0.0.1', () => {
    ctx.publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    console.log(`listening on ${ctx.publicUrl}`);
  });
  let h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let cpu = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'reset') {
      h.disable();
      h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      cpu = process.cpuUsage();
      process.send?.({ reset: true });
    } else if (m === 'report') {
      const used = process.cpuUsage(cpu);
      process.send?.({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6, cpuMs: (used.user + used.system) / 1000 });
    }
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void ctx.database.close().finally(() => process.exit(0)));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

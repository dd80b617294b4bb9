/**
 * The agent platform as perf/agents.bench.ts runs it: a child process of its own per store (so the load
 * generator never shares its event loop), driven over IPC. Environment: BENCH_DIR (data folder),
 * BENCH_DATABASE_URL (PostgreSQL; SQLite when empty), BENCH_PASSAGES (knowledge size).
 *   child → parent  {ready: {port, publicId, questions, indexSecs}} once seeded and listening
 *   parent → child  'start'  begin the measured window (event-loop delay histogram, CPU)
 *   parent → child  'stop'   end it; answers {stopped: WindowReport}
 *   parent → child  'exit'   close the server and the database, then exit
 * Per-IP limits are lifted (each visitor would otherwise be held to 30 posts a minute); the visitors
 * still come from distinct addresses, which the window report counts.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { createAgentsApp } from '../server/agents/app';
import { testAgentsConfig } from '../server/agents/config.testkit';
import { RateLimiter } from '../server/core/http/rate-limit';
import { seedBenchAgent } from './agents-seed';

export interface WindowReport {
  /** Event-loop delay over the window, ms (monitorEventLoopDelay, 10 ms resolution). */
  loop: { p50: number; p90: number; p99: number; max: number; mean: number; samples: number };
  /** CPU milliseconds (user + system) this process spent in the window. */
  cpuMs: number;
  /** Distinct client addresses that have connected since the server started (warm-up included). */
  addresses: number;
}

export type ToServer = 'start' | 'stop' | 'exit';
export type FromServer = { ready: { port: number; publicId: string; questions: string[]; indexSecs: number } } | { started: true } | { stopped: WindowReport } | { failed: string };

const send = (m: FromServer) => process.send?.(m);

async function main(): Promise<void> {
  const dir = process.env.BENCH_DIR;
  if (!dir) throw new Error('BENCH_DIR is required');
  const open = () => new RateLimiter(Number.MAX_SAFE_INTEGER, 60_000);
  const { app, ctx, close } = await createAgentsApp({
    config: testAgentsConfig(dir, { signupCredits: 100_000_000, databaseUrl: process.env.BENCH_DATABASE_URL || null }),
    log: () => {},
    limits: { auth: open(), publicConfig: open(), publicPost: open(), publicPoll: open(), publicAvatarVideo: open(), chat: open() },
    webhookWorker: false,
  });
  const seeded = await seedBenchAgent(ctx, Number(process.env.BENCH_PASSAGES ?? 10_000), 7);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  // A loaded machine can leave a kept-alive socket idle longer than Node's 5 s default.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;

  let histogram: IntervalHistogram | null = null;
  let cpu0 = process.cpuUsage();
  const addresses = new Set<string>();
  server.on('connection', (socket) => {
    if (socket.remoteAddress) addresses.add(socket.remoteAddress);
  });

  process.on('message', (m: ToServer) => {
    if (m === 'start') {
      histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      cpu0 = process.cpuUsage();
      send({ started: true });
    } else if (m === 'stop' && histogram) {
      histogram.disable();
      const ms = (ns: number) => ns / 1e6;
      const cpu = process.cpuUsage(cpu0);
      send({
        stopped: {
          loop: { p50: ms(histogram.percentile(50)), p90: ms(histogram.percentile(90)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean), samples: histogram.count },
          cpuMs: (cpu.user + cpu.system) / 1000,
          addresses: addresses.size,
        },
      });
      histogram = null;
    } else if (m === 'exit') {
      server.closeAllConnections();
      server.close();
      void close().finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 10_000).unref();
    }
  });
  send({ ready: { port: (server.address() as AddressInfo).port, publicId: seeded.publicId, questions: seeded.questions, indexSecs: seeded.indexSecs } });
}

main().catch((err: unknown) => {
  const failed = err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (process.send) process.send({ failed } satisfies FromServer, () => process.exit(1));
  else {
    console.error(failed);
    process.exit(1);
  }
});

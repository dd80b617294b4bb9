import type { AppContext } from '../context';
import { SyncBench } from './bench';
import { SyncCentral } from './central';
import { HttpTransport } from './http-transport';
import { authenticateBench } from './enrollers';
import type { SyncRuntime } from './runtime-context';

export type { SyncRuntime } from './runtime-context';

const envInt = (v: string | undefined) => (v && Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);

export function createSyncRuntime(ctx: AppContext): SyncRuntime {
  if (ctx.mode === 'central') {
    ctx.authenticateBench = (req) => authenticateBench(ctx, req);
    return { central: new SyncCentral(ctx.store), bench: null };
  }
  const bench = new SyncBench(ctx.store, {
    dataDir: ctx.config.dataDir,
    transport: (url) => new HttpTransport(url),
    onWorkspace: (ws) => {
      ctx.benchWorkspace = ws;
    },
    blockSize: envInt(process.env.KITTING_LEASE_BLOCK),
    intervalMs: envInt(process.env.KITTING_SYNC_INTERVAL_MS),
    log: ctx.log,
  });
  if (bench.workspace) ctx.benchWorkspace = bench.workspace;
  return { central: null, bench };
}

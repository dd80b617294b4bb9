import type { AppContext } from '../../core/context';
import { HttpError, notFound } from '../../core/http/errors';
import { SyncBench } from './bench';
import { SyncCentral } from './central';
import { HttpTransport } from './http-transport';
import { SyncError } from './protocol';

/** The sync side of an app: the central endpoints in central mode, the bench client in bench mode. */
export interface SyncRuntime {
  central: SyncCentral | null;
  bench: SyncBench | null;
}

declare module '../../core/context' {
  interface AppExtensions {
    /** Bench sync client or central sync endpoints (set by createApp). */
    sync?: SyncRuntime;
  }
}

const envInt = (v: string | undefined) => (v && Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);

export function createSyncRuntime(ctx: AppContext): SyncRuntime {
  if (ctx.mode === 'central') {
    ctx.authenticateBench = async (req) => (await import('./enrollers')).authenticateBench(ctx, req);
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

export function centralOf(app: AppContext): SyncCentral {
  const c = app.sync?.central;
  if (!c) throw notFound('not_found', { message: 'この操作は中央サーバーでのみ使えます' });
  return c;
}

export function benchOf(app: AppContext): SyncBench {
  const b = app.sync?.bench;
  if (!b) throw notFound('not_found', { message: 'この操作は作業台(ベンチ)でのみ使えます' });
  return b;
}

const MESSAGES: Record<string, string> = {
  enrol_interrupted: '登録処理中にこの作業台で番号が発行されたため、登録を完了できませんでした。新しい登録コードで再度登録してください',
};

/** A refused sync call as the API's error envelope (with central's time). */
export function asHttp(err: unknown): unknown {
  if (!(err instanceof SyncError)) return err;
  const status = err.status === 0 ? 503 : err.status;
  const message = MESSAGES[err.error];
  return new HttpError(status, err.error, { ...(message ? { message } : {}), ...(err.serverTime === null ? {} : { serverTime: err.serverTime }) });
}

export async function mapSyncErrors<T extends object>(fn: () => Promise<T>): Promise<Record<string, unknown>> {
  try {
    const out: object = await fn();
    return { ...out };
  } catch (err) {
    throw asHttp(err);
  }
}

import express, { type Express } from 'express';
import { pageHeaders } from '../core/http/page-headers';
import { recordAssist } from './modules/compliance/assist-audit';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config, Mode } from './server-config';
import type { AppContext } from './context';
import { errorHandler } from '../core/http/error-handler';
import { benchGuard } from './http/bench-guard';
import { refuseNonJsonBodies } from '../core/http/json-body';
import { launchGuard, type LaunchGuardOptions } from './http/launch-guard';
import { requestLog } from '../core/http/logging';
import { mountRoutes } from './http/registry';
import { planLimitGuard } from './modules/admin/plans';
import { seedSpecs } from './modules/seeds';
import { guardCounts } from './store/count-guard';
import { ensureWorkspace } from './store/seed';
import type { Store } from './store/types';
import { declaredLookups } from './store/lookups';
import { allRoutes, collectionSchemas, planCounted } from './modules';
import { tenantDefaults } from './modules/admin/tenants.service';
import { backfillSiteIndex } from './modules/sites/site-index';
import { backfillInboundAt } from './modules/inbound/inbound-upgrade';
import { INBOUND_BODY_LIMIT, INBOUND_UPLOAD_PATHS } from './modules/inbound/inbound.service';
import { createSyncRuntime } from './sync/runtime';
import { ErrorBody } from '../../shared/api/contracts/errors';

export interface CreateAppOptions {
  store: Store;
  config: Config;
  mode?: Mode;
  /** Signing secret; tests may omit it (a random one is used). */
  secret?: Buffer;
  /** Desktop bench: require the per-launch secret and a loopback Host on every request. */
  launchGuard?: LaunchGuardOptions;
}

const RENDERER_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'renderer', 'dist');

/** The bench's own workspace: created and seeded on first start, kept in meta afterwards. */
async function benchWorkspace(store: Store): Promise<string> {
  let ws = await store.meta('bench_workspace');
  if (!ws) {
    ws = `b-${randomBytes(8).toString('hex')}`;
    await store.setMeta('bench_workspace', ws);
  }
  await ensureWorkspace(store, ws, 'bench', seedSpecs);
  return ws;
}

/** Build the express app over a store (no listen): the same code for bench and central. */
export async function createApp(opts: CreateAppOptions): Promise<{ app: Express; ctx: AppContext }> {
  const mode = opts.mode ?? opts.config.mode;
  const log = opts.config.log ? (line: string) => console.log(line) : () => {};
  const ctx: AppContext = {
    mode,
    config: { ...opts.config, mode },
    // Central tenants have plans: a write growing a plan-counted collection is checked in its own transaction.
    store: mode === 'central' ? guardCounts(opts.store, planLimitGuard(planCounted)) : opts.store,
    secret: opts.secret ?? randomBytes(32),
    benchWorkspace: mode === 'bench' ? await benchWorkspace(opts.store) : null,
    collections: new Map(collectionSchemas.map((s) => [s.coll, s])),
    tenantDefaults,
    log,
    seeds: seedSpecs,
  };
  ctx.sync = createSyncRuntime(ctx);
  ctx.auditAssist = (ws, by, action) => recordAssist(ctx.store, ws, by, action);
  // Every module has declared its lookups by now (imported above): each gets its index.
  await opts.store.ensureLookups(declaredLookups());
  await backfillSiteIndex(opts.store);
  await backfillInboundAt(opts.store);

  const app = express();
  app.disable('x-powered-by');
  app.use(pageHeaders());
  if (opts.config.trustProxy > 0) app.set('trust proxy', opts.config.trustProxy);
  if (opts.launchGuard) app.use(launchGuard(opts.launchGuard));
  else if (mode === 'bench') app.use(benchGuard(opts.config.allowedHosts));
  app.set('query parser', 'simple');
  if (opts.config.log) app.use(requestLog(log));
  // An inbound list's file (up to 20 MB, sent as base64) is the one body larger than the general limit.
  app.post(INBOUND_UPLOAD_PATHS, express.json({ limit: INBOUND_BODY_LIMIT, strict: true }));
  app.use('/api', express.json({ limit: opts.config.bodyLimit, strict: true }));
  app.use('/api', refuseNonJsonBodies);

  const router = express.Router();
  mountRoutes(router, allRoutes, ctx);
  app.use(router);

  app.use('/api', (req, res) => {
    res.status(404).json({ ok: false, error: 'not_found', message: `no route ${req.method} ${req.originalUrl.split('?')[0]}` });
  });

  if (existsSync(RENDERER_DIST)) {
    app.use(express.static(RENDERER_DIST, { index: 'index.html' }));
    app.get('/{*rest}', (req, res, next) => (req.accepts('html') ? res.sendFile(join(RENDERER_DIST, 'index.html')) : next()));
  }
  app.use(errorHandler(log, undefined, ErrorBody));
  return { app, ctx };
}

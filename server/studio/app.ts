import express, { type Express, type Request, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { privateDir, writePrivateFile } from '../core/security/private-files';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crossSiteGuard } from '../core/http/cross-site';
import { errorHandler } from '../core/http/error-handler';
import { jsonBodiesOnly } from '../core/http/json-body';
import { requestLog } from '../core/http/logging';
import { RateLimiter } from '../core/http/rate-limit';
import { hashPassword } from '../core/security/passwords';
import { createMailer, type Mailer } from '../core/mail/mailer';
import type { OutboundPolicy } from '../core/security/ssrf';
import { loadOrCreateSecret } from '../core/security/signing';
import { ensureDemoWorkspace, ensureWorkspaceOne } from './accounts';
import { accountRoutes } from './accounts.routes';
import { sessionRoutes } from './sessions.routes';
import { billingRoutes } from './billing.routes';
import type { StudioConfig } from './config';
import type { StudioContext } from './context';
import { openStudioDb, type StudioDatabase } from './db';
import { jobRoutes } from './jobs.routes';
import { mountMcp } from './mcp';
import { CONTENT_TYPES, FILE_AREAS, checkFileSignature, signedFileUrl } from './media';
import { LocalPlatform } from './platform/local';
import type { Platform } from './platform/platform';
import { QueueClient } from './platform/queue-client';
import { mountLinkPages } from './link-pages.routes';
import { mountStudioRoutes, type StudioRoute } from './route';
import { studioOpenApiRoutes } from './openapi.routes';
import { ErrorBody } from '../../shared/api/contracts/errors';

const CLI_FILE = join(dirname(fileURLToPath(import.meta.url)), 'cli', 'studio.js');
export const studioRoutes: StudioRoute[] = [...accountRoutes, ...sessionRoutes, ...billingRoutes, ...jobRoutes, ...studioOpenApiRoutes(() => studioRoutes)];

/** The HS256 key: STUDIO_JWT_SECRET, else one generated into the data folder on first start. */
function jwtKey(config: StudioConfig): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  privateDir(config.dataDir);
  const file = join(config.dataDir, 'jwt.key');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  }
  const key = randomBytes(32);
  writePrivateFile(file, key.toString('hex'));
  return key;
}

export interface CreateStudioOptions {
  config: StudioConfig;
  /** An open, migrated store (tests); else the configured one is opened (STUDIO_DATABASE_URL or `<data>/studio.db`). */
  database?: StudioDatabase;
  /** A platform other than the configured one (tests). */
  platform?: Platform;
  /** A mailer other than the configured one (tests). */
  mailer?: Mailer;
  /** Tests only: let outbound requests reach these local fake servers (core/testing/outbound.ts). No environment variable sets it. */
  allowInternal?: OutboundPolicy['allowInternal'];
}

/** Build the studio's express app over its data folder (no listen). */
export async function createStudioApp(opts: CreateStudioOptions): Promise<{ app: Express; ctx: StudioContext }> {
  const { config } = opts;
  privateDir(config.dataDir);
  const log = config.log ? (line: string) => console.log(line) : () => {};
  const database =
    opts.database ??
    (await openStudioDb({
      file: join(config.dataDir, 'studio.db'), url: config.databaseUrl, statementTimeoutMs: config.dbStatementTimeoutMs,
      lockTimeoutMs: config.dbLockTimeoutMs, poolMax: config.dbPoolMax, prepare: config.dbPrepare, log: (line) => console.error(line),
    }));
  const db = database.db;
  const ctx: StudioContext = {
    config, db, database, log,
    jwtKey: jwtKey(config),
    urlSecret: loadOrCreateSecret(config.dataDir),
    publicUrl: `http://127.0.0.1:${config.port}`,
    limits: { login: new RateLimiter(10, 60_000), register: new RateLimiter(20, 3_600_000), mcp: new RateLimiter(120, 60_000) },
    platform: null as unknown as Platform,
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.dataDir, 'no-reply@studio.localhost'),
    outboundAllowInternal: opts.allowInternal ?? false,
  };
  ctx.platform =
    opts.platform ??
    (config.hfUrl && config.hfKey
      ? new QueueClient({ baseUrl: config.hfUrl, key: config.hfKey, allowInternal: ctx.outboundAllowInternal })
      : new LocalPlatform({ dir: join(config.dataDir, 'platform'), durationMs: config.localPlatformMs, urlFor: (f) => signedFileUrl(ctx, 'platform', f) }));
  if (config.legacyToken) await ensureWorkspaceOne(db, database.dialect);
  if (config.demo) await ensureDemoWorkspace(db, await hashPassword(randomBytes(16).toString('hex')));

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  if (config.trustProxy > 0) app.set('trust proxy', config.trustProxy);
  if (config.log) app.use(requestLog(log));
  // The studio authenticates by Authorization header only: a write that carries cookies but no such header
  // must at least come from the studio's own origin (no ambient credential can be borrowed cross-site).
  app.use('/api', crossSiteGuard({ sessionCookies: 'any' }));
  app.use('/api', express.json({ limit: '1mb', strict: true }));
  app.use('/api', jsonBodiesOnly('Send request bodies as JSON (Content-Type: application/json).'));

  const router = express.Router();
  mountStudioRoutes(router, studioRoutes, ctx);
  mountMcp(router, ctx);
  router.get('/files/:area/:name', (req: Request, res: Response) => {
    const area = String(req.params.area);
    const name = String(req.params.name);
    if (!(FILE_AREAS as readonly string[]).includes(area) || !/^[\w.-]+$/.test(name)) return void res.status(404).json({ ok: false, error: 'not_found' });
    const check = checkFileSignature(ctx, area, name, req.query.exp, req.query.sig);
    if (check === 'expired') return void res.status(410).json({ ok: false, error: 'link expired' });
    if (check !== 'ok') return void res.status(403).json({ ok: false, error: 'invalid signature' });
    const file = join(config.dataDir, area, name);
    if (!existsSync(file)) return void res.status(404).json({ ok: false, error: 'not_found' });
    res.setHeader('Content-Type', CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.sendFile(file);
  });
  router.get('/cli/studio.js', (_req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.sendFile(CLI_FILE);
  });
  // The pages mailed links open (HTML for people, outside the JSON API and its route list, like /cli/studio.js).
  mountLinkPages(router);
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.use(router);
  app.use((req, res) => {
    res.status(404).json({ ok: false, error: 'not_found', message: `no route ${req.method} ${req.originalUrl.split('?')[0]}` });
  });
  app.use(errorHandler(log, undefined, ErrorBody));
  return { app, ctx };
}

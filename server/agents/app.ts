import { linkPageRoutes } from './accounts/link-pages.routes';
import express, { type Express } from 'express';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { privateDir, writePrivateFile } from '../core/security/private-files';
import { join } from 'node:path';
import { errorHandler, type ErrorEnvelope } from '../core/http/error-handler';
import { notFound } from '../core/errors';
import type { AgentsConfig } from './config';
import type { AgentsContext } from './context';
import { openAgentsStore } from './db';
import { sealStoredSecrets } from './secrets-at-rest';
import { crossSiteGuard } from '../core/http/cross-site';
import { COOKIE } from './accounts/session';
import { createLimits, jsonBodies, mountAgentRoutes, publicCors, type AgentRoute, type AgentsLimits } from './http';
import { createMailer, type Mailer } from './accounts/mailer';
import { createEngineSet, type ChatEngine } from './chat/engine';
import { LocalEngine } from './chat/local-engine';
import { AnthropicEngine, OpenAiEngine } from './chat/model-engines';
import { authRoutes } from './accounts/auth.routes';
import { agentRoutes } from './agents/agents.routes';
import { sourceRoutes } from './knowledge/sources.routes';
import { chatRoutes } from './chat/chat.routes';
import { conversationRoutes } from './inbox/conversations.routes';
import { contactRoutes } from './crm/contacts.routes';
import { leadRoutes } from './crm/leads.routes';
import { widgetRoutes } from './crm/widget.routes';
import { publicRoutes } from './public/public.routes';
import { insightRoutes } from './insights/insights.routes';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { createWebhookDispatcher } from './webhooks/dispatcher';
import type { OutboundOptions } from './webhooks/sender';
import { domainRoutes, systemCnameResolver, systemTxtResolver, type CnameResolver, type TxtResolver } from './workspace-settings/domains.routes';
import { settingsRoutes } from './workspace-settings/settings.routes';
import { campaignRoutes } from './workspace-settings/campaigns.routes';
import { channelRoutes } from './channels/channels.routes';
import { actionRoutes } from './channels/actions.routes';
import { integrationRoutes } from './channels/integrations.routes';
import { crmListener } from './channels/crm-sync';
import { callbackBodies, callbackRoutes } from './callbacks/callbacks.routes';
import { widgetScriptRoutes } from './public/widget.routes';
import { mediaRoutes } from './public/media.routes';
import { OpenAiMedia, type WidgetMedia } from './public/media';
import { supportRoutes } from './support/support.routes';
import { adminUserRoutes } from './admin/users.routes';
import { adminPlatformRoutes } from './admin/platform.routes';
import { adminContentRoutes } from './admin/content.routes';
import { backupRoutes } from './admin/backups.routes';
import { adminAffiliateRoutes } from './admin/affiliates.routes';
import { workspaceRoutes } from './workspace/workspace.routes';
import { billingRoutes } from './billing/billing.routes';
import { affiliateRoutes } from './affiliate/affiliate.routes';
import { agentsOpenApiRoutes } from './openapi.routes';
import { AgentsErrorBody } from '../../shared/api/contracts/agents-common';

export interface AgentsAppOptions {
  config: AgentsConfig;
  log?: (line: string) => void;
  mailer?: Mailer;
  engines?: { anthropic?: ChatEngine | null; openai?: ChatEngine | null };
  now?: () => number;
  /** Replaces the section-8 limiters (benchmarks lift the per-IP limits to drive many turns from one host). */
  limits?: AgentsLimits;
  /** Outbound webhook transport; tests inject a private-address allowance and their receiver's CA. */
  outbound?: Partial<OutboundOptions>;
  /** Poll the webhook queue on a timer (default on); tests drive the queue themselves. */
  webhookWorker?: boolean;
  /** Widget speech and translation (tests point it at a local fake); from OPENAI_API_KEY when not given, none without it. */
  media?: WidgetMedia | null;
  /** DNS CNAME lookup of domain refresh (tests answer without the network). */
  resolveCname?: CnameResolver;
  /** DNS TXT lookup of domain verification (tests answer without the network). */
  resolveTxt?: TxtResolver;
}

/** The JWT secret: AGENTS_JWT_SECRET, else one generated into the data folder on first start. */
function jwtKey(config: AgentsConfig): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  privateDir(config.dataDir);
  const file = join(config.dataDir, 'jwt.secret');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  }
  const secret = randomBytes(32);
  writePrivateFile(file, secret.toString('hex'));
  return secret;
}

/** Errors of this service are `{error: '<message>'}` plus fields a route names (not the kitting API's message/issues). */
const envelope: ErrorEnvelope = (e) => {
  const { message: _message, issues: _issues, ...named } = e.extra;
  return { error: e.error, ...named };
};

export async function createAgentsApp(opts: AgentsAppOptions): Promise<{ app: Express; ctx: AgentsContext; close: () => Promise<void>; routes: readonly AgentRoute[] }> {
  const { config } = opts;
  const log = opts.log ?? ((line: string) => console.error(line));
  privateDir(config.dataDir);
  const { database } = await openAgentsStore({
    file: join(config.dataDir, 'agents.db'), databaseUrl: config.databaseUrl, statementTimeoutMs: config.dbStatementTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs, poolMax: config.dbPoolMax, prepare: config.dbPrepare, log,
  });
  await sealStoredSecrets(database.db, config);
  const anthropic = opts.engines?.anthropic !== undefined ? opts.engines.anthropic : config.anthropicKey ? new AnthropicEngine(config.anthropicKey, { allowInternal: config.allowPrivateFetch }) : null;
  const openai = opts.engines?.openai !== undefined ? opts.engines.openai : config.openaiKey ? new OpenAiEngine(config.openaiKey, { allowInternal: config.allowPrivateFetch }) : null;
  const ctx: AgentsContext = {
    config,
    db: database.db,
    database,
    jwtKey: jwtKey(config),
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.dataDir),
    engines: createEngineSet(new LocalEngine(), anthropic, openai),
    limits: opts.limits ?? createLimits(opts.now),
    log,
    background: new Set(),
  };

  const outbound: OutboundOptions = { allowPrivate: config.allowPrivateFetch, ...opts.outbound };
  const webhooks = createWebhookDispatcher(ctx, { outbound, now: opts.now ?? Date.now, autoStart: opts.webhookWorker ?? true });

  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy > 0) app.set('trust proxy', config.trustProxy);
  app.use(publicCors());
  // A session-cookie write from another site is refused before any body is read (Bearer/API-key calls pass).
  app.use(crossSiteGuard({ sessionCookies: [COOKIE], trustedOrigins: [config.appUrl] }));
  app.use(callbackBodies());
  app.use(...jsonBodies());
  const router = express.Router();
  const routes: AgentRoute[] = [];
  const mount = (list: AgentRoute[]) => {
    routes.push(...list);
    mountAgentRoutes(router, ctx, list);
  };
  mount([...authRoutes(ctx), ...agentRoutes(ctx), ...sourceRoutes(ctx), ...chatRoutes(ctx), ...conversationRoutes(ctx), ...contactRoutes(ctx), ...leadRoutes(ctx), ...widgetRoutes(ctx), ...publicRoutes(ctx), ...insightRoutes(ctx), ...webhookRoutes(ctx, webhooks, outbound.allowPrivate), ...domainRoutes(ctx, { cname: opts.resolveCname ?? systemCnameResolver, txt: opts.resolveTxt ?? systemTxtResolver }), ...settingsRoutes(ctx), ...campaignRoutes(ctx), ...channelRoutes(ctx), ...actionRoutes(ctx), ...integrationRoutes(ctx), ...callbackRoutes(ctx, opts.now)]);
  mount(widgetScriptRoutes(ctx));
  mount(linkPageRoutes(ctx));
  const media = opts.media !== undefined ? opts.media : config.openaiKey ? new OpenAiMedia(config.openaiKey, undefined, config.allowPrivateFetch) : null;
  mount(mediaRoutes(ctx, media));
  mount([...supportRoutes(ctx), ...adminUserRoutes(ctx), ...adminPlatformRoutes(ctx), ...adminContentRoutes(ctx), ...adminAffiliateRoutes(ctx), ...backupRoutes(ctx)]);
  mount([...workspaceRoutes(ctx), ...billingRoutes(ctx), ...affiliateRoutes(ctx)]);
  mount(agentsOpenApiRoutes(() => routes));
  app.use(router);
  app.use('/api', (_req, _res, next) => next(notFound('Unknown API route')));
  app.use((_req, _res, next) => next(notFound('Not found')));
  app.use(errorHandler(log, envelope, AgentsErrorBody));

  webhooks.onEvent(crmListener(ctx));
  webhooks.start();
  const close = async () => {
    await webhooks.stop();
    await Promise.allSettled([...ctx.background]);
    await database.close();
  };
  return { app, ctx, close, routes };
}

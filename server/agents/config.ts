import { resolve } from 'node:path';
import { readPrepareSwitch } from '../core/db/prepared';
import { parseTrustProxy } from '../core/http/trust-proxy';
import type { OutboundPolicy } from '../core/security/ssrf';

/** Payment providers: each is configured when its keys are set; the API URLs point tests at local fake servers. */
export interface PaymentsConfig {
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  /** Stripe API address (default https://api.stripe.com). */
  stripeApiUrl: string | null;
  paypalClientId: string | null;
  paypalClientSecret: string | null;
  paypalWebhookId: string | null;
  /** PayPal REST address (default https://api-m.paypal.com; the sandbox is https://api-m.sandbox.paypal.com). */
  paypalApiUrl: string;
  /** Outbound guard's test hook for the Stripe and PayPal clients (local fakes); never read from the environment. */
  allowInternal: OutboundPolicy['allowInternal'];
}

/** The agent platform's configuration, read once from the environment. */
export interface AgentsConfig {
  port: number;
  dataDir: string;
  /** PostgreSQL URL (AGENTS_DATABASE_URL); null keeps the SQLite file agents.db in the data folder. */
  databaseUrl: string | null;
  /** AGENTS_DB_POOL_MAX (1..100, default 10): PostgreSQL connections of this process. */
  dbPoolMax: number;
  /** statement_timeout of every PostgreSQL connection (below the request timeout). */
  dbStatementTimeoutMs: number;
  /** AGENTS_DB_PREPARE (default on; `0` off): statements prepared once per PostgreSQL connection. */
  dbPrepare: boolean;
  /** lock_timeout on PostgreSQL, busy_timeout on SQLite. */
  dbLockTimeoutMs: number;
  /** HS256 secret of session tokens; generated into the data folder when unset. */
  jwtSecret: string | null;
  adminEmails: string[];
  signupCredits: number;
  anthropicKey: string | null;
  openaiKey: string | null;
  smtpUrl: string | null;
  /** Base address used in mailed links (reset, invite). */
  appUrl: string;
  /** Domain of generated agent mail addresses. */
  mailDomain: string;
  /** Pages a website source crawls at most. */
  crawlPageLimit: number;
  /**
   * Let outbound requests reach private addresses (loopback, LAN): tests' local fake servers only. Set from
   * code (config.testkit.ts overrides); never read from the environment, so no deployment can switch it on.
   */
  allowPrivateFetch: OutboundPolicy['allowInternal'];
  /** Reverse-proxy hops whose X-Forwarded-For / X-Forwarded-Proto are believed (AGENTS_TRUST_PROXY, 0..10). */
  trustProxy: number;
  /** Host name custom domains point their CNAME record at. */
  cnameTarget: string;
  /** AES-256-GCM key (64 hex or base64 of 32 bytes) for stored channel and integration credentials; generated into the data folder when unset. */
  secretsKey: string | null;
  /** Team-chat callback signing secret (/api/slack/events). */
  slackSigningSecret: string | null;
  /** Messaging-platform verify token (GET handshake) and app secret (x-hub-signature-256). */
  whatsappVerifyToken: string | null;
  whatsappAppSecret: string | null;
  /** Base addresses of the channel and integration providers (overridable for staging or local fakes). */
  providerUrls: Record<ProviderName, string>;
  payments: PaymentsConfig;
}

export const PROVIDER_NAMES = ['slack', 'whatsapp', 'hubspot', 'pipedrive'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
const PROVIDER_DEFAULTS: Record<ProviderName, string> = {
  slack: 'https://slack.com/api',
  whatsapp: 'https://graph.facebook.com/v19.0',
  hubspot: 'https://api.hubapi.com',
  pipedrive: 'https://api.pipedrive.com/v1',
};

function int(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? Math.trunc(n) : fallback;
}

function poolMax(v: string | undefined): number {
  const n = Number(v ?? 10);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`AGENTS_DB_POOL_MAX must be a whole number from 1 to 100, got ${v}`);
  return n;
}

export function readAgentsConfig(env: NodeJS.ProcessEnv = process.env): AgentsConfig {
  const port = int(env.PORT, 4320);
  return {
    port,
    dataDir: resolve(env.AGENTS_DATA_DIR || './data/agents'),
    databaseUrl: env.AGENTS_DATABASE_URL || null,
    dbPoolMax: poolMax(env.AGENTS_DB_POOL_MAX),
    dbStatementTimeoutMs: 15_000,
    dbPrepare: readPrepareSwitch('AGENTS_DB_PREPARE', env.AGENTS_DB_PREPARE),
    dbLockTimeoutMs: 5_000,
    jwtSecret: env.AGENTS_JWT_SECRET || null,
    adminEmails: (env.AGENTS_ADMIN_EMAILS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    signupCredits: Math.max(0, int(env.AGENTS_SIGNUP_CREDITS, 100)),
    anthropicKey: env.ANTHROPIC_API_KEY || null,
    openaiKey: env.OPENAI_API_KEY || null,
    smtpUrl: env.SMTP_URL || null,
    appUrl: (env.AGENTS_APP_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    mailDomain: env.AGENTS_MAIL_DOMAIN || 'agents.localhost',
    crawlPageLimit: Math.min(200, Math.max(1, int(env.AGENTS_CRAWL_PAGE_LIMIT, 20))),
    allowPrivateFetch: false,
    trustProxy: parseTrustProxy('AGENTS_TRUST_PROXY', env.AGENTS_TRUST_PROXY),
    cnameTarget: (env.AGENTS_CNAME_TARGET || 'domains.agents.localhost').toLowerCase().replace(/\.$/, ''),
    secretsKey: env.AGENTS_SECRETS_KEY || null,
    slackSigningSecret: env.SLACK_SIGNING_SECRET || null,
    whatsappVerifyToken: env.WHATSAPP_VERIFY_TOKEN || null,
    whatsappAppSecret: env.WHATSAPP_APP_SECRET || null,
    providerUrls: Object.fromEntries(
      PROVIDER_NAMES.map((p) => [p, (env[`AGENTS_${p.toUpperCase()}_API_URL`] || PROVIDER_DEFAULTS[p]).replace(/\/+$/, '')]),
    ) as Record<ProviderName, string>,
    payments: {
      stripeSecretKey: env.STRIPE_SECRET_KEY || null,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
      stripeApiUrl: env.STRIPE_API_URL || null,
      paypalClientId: env.PAYPAL_CLIENT_ID || null,
      paypalClientSecret: env.PAYPAL_CLIENT_SECRET || null,
      paypalWebhookId: env.PAYPAL_WEBHOOK_ID || null,
      paypalApiUrl: (env.PAYPAL_API_URL || 'https://api-m.paypal.com').replace(/\/+$/, ''),
      allowInternal: false,
    },
  };
}

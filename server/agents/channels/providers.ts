import { z } from 'zod';
import { guardedFetch, type OutboundRequest } from '../../core/security/ssrf';
import type { AgentsConfig } from '../config';

/** What a provider said about the credentials: the account they belong to (nothing secret), or why not. */
export type Check = { ok: true; account: Record<string, string> } | { ok: false; error: string };

export interface ProviderSpec<C> {
  name: string;
  description: string;
  fields: { name: keyof C & string; label: string; secret: boolean }[];
  credentials: z.ZodType<C>;
  validate(config: AgentsConfig, creds: C): Promise<Check>;
}

/** One provider API call through core's outbound guard (no redirects, 1 MB answer at most, 10 s). */
async function call(config: AgentsConfig, url: string, init: OutboundRequest): Promise<{ status: number; body: Record<string, unknown> } | { error: string }> {
  try {
    const res = await guardedFetch(url, init, { allowInternal: config.allowPrivateFetch, maxRedirects: 0, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
    let body: Record<string, unknown> = {};
    try {
      body = res.json() as Record<string, unknown>;
    } catch {
      body = {};
    }
    return { status: res.status, body };
  } catch (err) {
    return { error: `provider unreachable (${err instanceof Error ? err.message : String(err)})` };
  }
}
const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));

const slackCreds = z.object({ botToken: z.string().trim().min(1).max(300).regex(/^xox[bp]-/, 'must be a bot token (xoxb-…)') });
const whatsappCreds = z.object({ accessToken: z.string().trim().min(1).max(1000), phoneNumberId: z.string().trim().regex(/^\d{5,20}$/, 'must be the numeric phone number id') });
const hubspotCreds = z.object({ accessToken: z.string().trim().min(1).max(1000) });
const pipedriveCreds = z.object({ apiToken: z.string().trim().min(1).max(200) });

export const CHANNELS = {
  slack: {
    name: 'Slack',
    description: 'Answer in Slack channels and threads; operator replies are posted back to the thread.',
    fields: [{ name: 'botToken', label: 'Bot token', secret: true }],
    credentials: slackCreds,
    async validate(config, c) {
      const r = await call(config, `${config.providerUrls.slack}/auth.test`, { method: 'POST', headers: { authorization: `Bearer ${c.botToken}` } });
      if ('error' in r) return { ok: false, error: r.error };
      if (r.body.ok !== true) return { ok: false, error: `Slack refused the credentials (${s(r.body.error) || r.status})` };
      return { ok: true, account: { team_id: s(r.body.team_id), team: s(r.body.team), bot_user_id: s(r.body.user_id) } };
    },
  } satisfies ProviderSpec<z.infer<typeof slackCreds>>,
  whatsapp: {
    name: 'WhatsApp',
    description: 'Answer WhatsApp Business messages; operator replies are sent to the customer.',
    fields: [{ name: 'accessToken', label: 'Access token', secret: true }, { name: 'phoneNumberId', label: 'Phone number ID', secret: false }],
    credentials: whatsappCreds,
    async validate(config, c) {
      const r = await call(config, `${config.providerUrls.whatsapp}/${c.phoneNumberId}?fields=display_phone_number,verified_name`, { headers: { authorization: `Bearer ${c.accessToken}` } });
      if ('error' in r) return { ok: false, error: r.error };
      if (r.status !== 200) return { ok: false, error: `WhatsApp refused the credentials (${s((r.body.error as Record<string, unknown> | undefined)?.message) || r.status})` };
      return { ok: true, account: { phone_number_id: c.phoneNumberId, display_phone_number: s(r.body.display_phone_number), verified_name: s(r.body.verified_name) } };
    },
  } satisfies ProviderSpec<z.infer<typeof whatsappCreds>>,
} as const;
export type ChannelName = keyof typeof CHANNELS;

export const INTEGRATIONS = {
  hubspot: {
    name: 'HubSpot',
    description: 'CRM: captured leads as contacts.',
    fields: [{ name: 'accessToken', label: 'Private app access token', secret: true }],
    credentials: hubspotCreds,
    async validate(config, c) {
      const r = await call(config, `${config.providerUrls.hubspot}/account-info/v3/details`, { headers: { authorization: `Bearer ${c.accessToken}` } });
      if ('error' in r) return { ok: false, error: r.error };
      if (r.status !== 200) return { ok: false, error: `HubSpot refused the credentials (${s(r.body.message) || r.status})` };
      return { ok: true, account: { portal_id: s(r.body.portalId), time_zone: s(r.body.timeZone) } };
    },
  } satisfies ProviderSpec<z.infer<typeof hubspotCreds>>,
  pipedrive: {
    name: 'Pipedrive',
    description: 'CRM: captured leads as persons and deals.',
    fields: [{ name: 'apiToken', label: 'API token', secret: true }],
    credentials: pipedriveCreds,
    async validate(config, c) {
      const r = await call(config, `${config.providerUrls.pipedrive}/users/me?api_token=${encodeURIComponent(c.apiToken)}`, {});
      if ('error' in r) return { ok: false, error: r.error };
      const data = (r.body.data ?? {}) as Record<string, unknown>;
      if (r.status !== 200 || r.body.success !== true) return { ok: false, error: `Pipedrive refused the credentials (${s(r.body.error) || r.status})` };
      return { ok: true, account: { name: s(data.name), email: s(data.email), company: s(data.company_name) } };
    },
  } satisfies ProviderSpec<z.infer<typeof pipedriveCreds>>,
} as const;
export type IntegrationName = keyof typeof INTEGRATIONS;

/** Send a text to the outside conversation of a channel. */
export async function sendThroughChannel(config: AgentsConfig, channel: ChannelName, creds: Record<string, string>, ref: string, text: string): Promise<{ ok: boolean; error: string | null }> {
  if (channel === 'slack') {
    const [chan, thread] = ref.split(':');
    const r = await call(config, `${config.providerUrls.slack}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creds.botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: chan, thread_ts: thread || undefined, text }),
    });
    if ('error' in r) return { ok: false, error: r.error };
    return r.body.ok === true ? { ok: true, error: null } : { ok: false, error: `Slack: ${s(r.body.error) || r.status}` };
  }
  const r = await call(config, `${config.providerUrls.whatsapp}/${creds.phoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${creds.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to: ref, type: 'text', text: { body: text } }),
  });
  if ('error' in r) return { ok: false, error: r.error };
  return r.status >= 200 && r.status < 300 ? { ok: true, error: null } : { ok: false, error: `WhatsApp: ${r.status}` };
}

/** A provider's check with its credentials as plain strings (after the provider's own schema parsed them). */
export type Validate = (config: AgentsConfig, creds: Record<string, string>) => Promise<Check>;
export const validatorOf = (spec: { validate: unknown }): Validate => spec.validate as Validate;

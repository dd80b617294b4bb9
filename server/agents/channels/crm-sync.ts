import { guardedFetch, type OutboundRequest } from '../../core/security/ssrf';
import type { AgentsContext } from '../context';
import { openCredentials } from './delivery';
import { connectedIntegrations, recordIntegrationSync } from './integrations.repository';

interface LeadData {
  name?: string;
  email?: string;
  phone?: string;
  company?: string;
}

async function push(ctx: AgentsContext, url: string, init: OutboundRequest): Promise<string | null> {
  try {
    const res = await guardedFetch(url, init, { allowInternal: ctx.config.allowPrivateFetch, maxRedirects: 0, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
    return res.ok ? null : `answered ${res.status}`;
  } catch (err) {
    return `unreachable (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** A captured lead goes to every CRM the workspace connected; the outcome is kept on the integration. */
async function syncLead(ctx: AgentsContext, ws: string, lead: LeadData): Promise<void> {
  if (!lead.email && !lead.phone) return;
  const rows = await connectedIntegrations(ctx.db, ws);
  for (const r of rows) {
    const creds = openCredentials(ctx, r.credentials);
    if (!creds) continue;
    const [first, ...rest] = (lead.name ?? '').trim().split(/\s+/);
    const error =
      r.provider === 'hubspot'
        ? await push(ctx, `${ctx.config.providerUrls.hubspot}/crm/v3/objects/contacts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${creds.accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ properties: { email: lead.email || undefined, firstname: first || undefined, lastname: rest.join(' ') || undefined, phone: lead.phone || undefined, company: lead.company || undefined } }),
          })
        : await push(ctx, `${ctx.config.providerUrls.pipedrive}/persons?api_token=${encodeURIComponent(creds.apiToken)}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: lead.name || lead.email || lead.phone, email: lead.email ? [lead.email] : undefined, phone: lead.phone ? [lead.phone] : undefined }),
          });
    await recordIntegrationSync(ctx.db, ws, r.provider, Date.now(), error ? `lead not synced: ${error}` : null);
  }
}

/** Listener for the event stream: lead.captured (not its alias, so a lead is pushed once). */
export function crmListener(ctx: AgentsContext) {
  return async (e: { workspace_id: string; event: string; payload: string }) => {
    if (e.event !== 'lead.captured') return;
    const body = JSON.parse(e.payload) as { data?: LeadData };
    await syncLead(ctx, e.workspace_id, body.data ?? {});
  };
}

import { z } from 'zod';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { openCredentials } from './delivery';
import { INTEGRATIONS, validatorOf, type IntegrationName } from './providers';
import { secretBox } from './secret-box';
import { integrationsResponses } from '../../../shared/api/contracts/agents-channels';
import { integrationsRequests, providerParam } from '../../../shared/api/contracts/agents-channels-requests';

interface IntegrationRow {
  provider: IntegrationName;
  status: string;
  credentials: string;
  account: string;
  error: string | null;
  connected_at: number;
  checked_at: number;
  last_sync_at: number | null;
  last_sync_error: string | null;
}
const integrationsIso = (t: number | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : null);
const integrationsNAMES = Object.keys(INTEGRATIONS) as IntegrationName[];

function integrationsPresent(name: IntegrationName, r: IntegrationRow | undefined) {
  const spec = INTEGRATIONS[name];
  return {
    provider: name, name: spec.name, description: spec.description, fields: spec.fields,
    connected: Boolean(r), status: r ? r.status : 'disconnected', account: r ? (JSON.parse(r.account) as Record<string, string>) : null,
    error: r?.error ?? null, connected_at: integrationsIso(r?.connected_at), checked_at: integrationsIso(r?.checked_at),
    last_sync_at: integrationsIso(r?.last_sync_at ?? undefined), last_sync_error: r?.last_sync_error ?? null,
  };
}

function providerOf(raw: string): IntegrationName {
  if (!(integrationsNAMES as string[]).includes(raw)) throw notFound('unknown integration');
  return raw as IntegrationName;
}

export function integrationRoutes(ctx: AgentsContext): AgentRoute[] {
  const get = (ws: string, p: IntegrationName) => ctx.legacyDb.prepare('SELECT * FROM integrations WHERE workspace_id = ? AND provider = ?').get(ws, p) as IntegrationRow | undefined;
  return [
    route({ method: 'get', path: '/api/integrations', response: integrationsResponses['GET /api/integrations'], auth: 'bearer', handler: ({ caller }) => ({ integrations: integrationsNAMES.map((n) => integrationsPresent(n, get(caller.ws, n))) }) }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/connect', response: integrationsResponses['POST /api/integrations/:provider/connect'],
      auth: 'editor',
      params: providerParam,
      body: integrationsRequests['POST /api/integrations/:provider/connect'].body,
      handler: async ({ caller, params: p, body }) => {
        const name = providerOf(p.provider);
        const spec = INTEGRATIONS[name];
        const parsed = (spec.credentials as z.ZodType<Record<string, string>>).safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = issue.path.map(String).join('.');
          throw badRequest(body[field] === undefined ? `${field} is required` : `${field}: ${issue.message}`);
        }
        const check = await validatorOf(spec)(ctx.config, parsed.data);
        if (!check.ok) throw badRequest(check.error);
        const now = Date.now();
        ctx.legacyDb
          .prepare(`INSERT INTO integrations (workspace_id, provider, status, credentials, account, error, connected_at, checked_at) VALUES (?, ?, 'connected', ?, ?, NULL, ?, ?)
                    ON CONFLICT(workspace_id, provider) DO UPDATE SET status = 'connected', credentials = excluded.credentials, account = excluded.account, error = NULL, connected_at = excluded.connected_at, checked_at = excluded.checked_at`)
          .run(caller.ws, name, secretBox(ctx.config).seal(JSON.stringify(parsed.data)), JSON.stringify(check.account), now, now);
        return { integration: integrationsPresent(name, get(caller.ws, name)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/test', response: integrationsResponses['POST /api/integrations/:provider/test'],
      auth: 'editor',
      params: providerParam,
      handler: async ({ caller, params: p }) => {
        const name = providerOf(p.provider);
        const r = get(caller.ws, name);
        if (!r) throw badRequest('integration is not connected');
        const creds = openCredentials(ctx, r.credentials);
        const check = creds ? await validatorOf(INTEGRATIONS[name])(ctx.config, creds) : { ok: false as const, error: 'stored credentials cannot be read' };
        ctx.legacyDb
          .prepare('UPDATE integrations SET status = ?, error = ?, account = COALESCE(?, account), checked_at = ? WHERE workspace_id = ? AND provider = ?')
          .run(check.ok ? 'connected' : 'error', check.ok ? null : check.error, check.ok ? JSON.stringify(check.account) : null, Date.now(), caller.ws, name);
        return { ok: check.ok, error: check.ok ? null : check.error, integration: integrationsPresent(name, get(caller.ws, name)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/disconnect', response: integrationsResponses['POST /api/integrations/:provider/disconnect'],
      auth: 'editor',
      params: providerParam,
      handler: ({ caller, params: p }) => {
        const name = providerOf(p.provider);
        if (!get(caller.ws, name)) throw badRequest('integration is not connected');
        ctx.legacyDb.prepare('DELETE FROM integrations WHERE workspace_id = ? AND provider = ?').run(caller.ws, name);
        return { integration: integrationsPresent(name, undefined) };
      },
    }),
  ];
}

import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { openCredentials } from './delivery';
import { INTEGRATIONS, validatorOf, type IntegrationName } from './providers';
import { secretBox } from './secret-box';
import { deleteIntegration, integrationOf, recordIntegrationCheck, saveIntegration, type IntegrationRow } from './integrations.repository';

const iso = (t: number | null | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : null);
export const INTEGRATION_NAMES = Object.keys(INTEGRATIONS) as IntegrationName[];

function present(name: IntegrationName, r: IntegrationRow | undefined) {
  const spec = INTEGRATIONS[name];
  return {
    provider: name, name: spec.name, description: spec.description, fields: spec.fields,
    connected: Boolean(r), status: r ? r.status : 'disconnected', account: r ? (JSON.parse(r.account) as Record<string, string>) : null,
    error: r?.error ?? null, connected_at: iso(r?.connected_at), checked_at: iso(r?.checked_at),
    last_sync_at: iso(r?.last_sync_at), last_sync_error: r?.last_sync_error ?? null,
  };
}

const stateOf = async (ctx: AgentsContext, ws: string, name: IntegrationName) => present(name, await integrationOf(ctx.db, ws, name));

export async function listIntegrations(ctx: AgentsContext, ws: string) {
  const out = [];
  for (const n of INTEGRATION_NAMES) out.push(await stateOf(ctx, ws, n));
  return out;
}

/** Credentials already checked by the provider's schema: checked live, then stored sealed. */
export async function connectIntegration(ctx: AgentsContext, ws: string, name: IntegrationName, creds: Record<string, string>) {
  const check = await validatorOf(INTEGRATIONS[name])(ctx.config, creds);
  if (!check.ok) throw badRequest(check.error);
  await saveIntegration(ctx.db, { ws, provider: name, credentials: secretBox(ctx.config).seal(JSON.stringify(creds)), account: JSON.stringify(check.account), now: Date.now() });
  return stateOf(ctx, ws, name);
}

export async function testIntegration(ctx: AgentsContext, ws: string, name: IntegrationName) {
  const r = await integrationOf(ctx.db, ws, name);
  if (!r) throw badRequest('integration is not connected');
  const creds = openCredentials(ctx, r.credentials);
  const check = creds ? await validatorOf(INTEGRATIONS[name])(ctx.config, creds) : { ok: false as const, error: 'stored credentials cannot be read' };
  await recordIntegrationCheck(ctx.db, ws, name, { status: check.ok ? 'connected' : 'error', error: check.ok ? null : check.error, account: check.ok ? JSON.stringify(check.account) : null, at: Date.now() });
  return { ok: check.ok, error: check.ok ? null : check.error, integration: await stateOf(ctx, ws, name) };
}

export async function disconnectIntegration(ctx: AgentsContext, ws: string, name: IntegrationName) {
  if (!(await deleteIntegration(ctx.db, ws, name))) throw badRequest('integration is not connected');
  return present(name, undefined);
}

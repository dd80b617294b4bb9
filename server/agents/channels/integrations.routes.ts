import { z } from 'zod';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { INTEGRATIONS, type IntegrationName } from './providers';
import { connectIntegration, disconnectIntegration, INTEGRATION_NAMES, listIntegrations, testIntegration } from './integrations.service';
import { integrationsResponses } from '../../../shared/api/contracts/agents-channels';
import { integrationsRequests, providerParam } from '../../../shared/api/contracts/agents-channels-requests';

function providerOf(raw: string): IntegrationName {
  if (!(INTEGRATION_NAMES as string[]).includes(raw)) throw notFound('unknown integration');
  return raw as IntegrationName;
}

export function integrationRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({ method: 'get', path: '/api/integrations', response: integrationsResponses['GET /api/integrations'], auth: 'bearer', handler: async ({ caller }) => ({ integrations: await listIntegrations(ctx, caller.ws) }) }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/connect', response: integrationsResponses['POST /api/integrations/:provider/connect'],
      auth: 'editor',
      params: providerParam,
      body: integrationsRequests['POST /api/integrations/:provider/connect'].body,
      handler: async ({ caller, params: p, body }) => {
        const name = providerOf(p.provider);
        const parsed = (INTEGRATIONS[name].credentials as z.ZodType<Record<string, string>>).safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = issue.path.map(String).join('.');
          throw badRequest(body[field] === undefined ? `${field} is required` : `${field}: ${issue.message}`);
        }
        return { integration: await connectIntegration(ctx, caller.ws, name, parsed.data) };
      },
    }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/test', response: integrationsResponses['POST /api/integrations/:provider/test'],
      auth: 'editor',
      params: providerParam,
      handler: async ({ caller, params: p }) => testIntegration(ctx, caller.ws, providerOf(p.provider)),
    }),
    route({
      method: 'post',
      path: '/api/integrations/:provider/disconnect', response: integrationsResponses['POST /api/integrations/:provider/disconnect'],
      auth: 'editor',
      params: providerParam,
      handler: async ({ caller, params: p }) => ({ integration: await disconnectIntegration(ctx, caller.ws, providerOf(p.provider)) }),
    }),
  ];
}

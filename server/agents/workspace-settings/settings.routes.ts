import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { agentSettings, patchAgentSettings } from './settings.service';
import { settingsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { settingsRequests, patchBody, NAMES, SectionName } from '../../../shared/api/contracts/agents-workspace-settings-requests';

export function settingsRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/settings', response: settingsResponses['GET /api/settings'],
      auth: 'bearer',
      query: settingsRequests['GET /api/settings'].query,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, sections: NAMES, settings: await agentSettings(ctx, a.id) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/settings', response: settingsResponses['PATCH /api/settings'],
      auth: 'editor',
      query: settingsRequests['PATCH /api/settings'].query,
      body: patchBody,
      handler: async ({ caller, query, body }) => {
        const { agentId, ...sections } = body as { agentId?: string } & Partial<Record<SectionName, Record<string, unknown>>>;
        const a = await selectAgent(ctx, caller.ws, agentId ?? query.agent);
        return { agentId: a.id, sections: NAMES, settings: await patchAgentSettings(ctx, a.id, sections) };
      },
    }),
  ];
}

/** Request contracts of the agent platform's channels routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

/** `:type` of an action. */
export const actionTypeParam = z.object({ type: z.string().max(40) });

/** `:provider` of an integration. */
export const providerParam = z.object({ provider: z.string().max(40) });

export const channelParam = z.object({ channel: z.string().max(40) });

export const configSchema = z.record(z.string().max(60), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()])).refine((r) => Object.keys(r).length <= 20, 'at most 20 settings');

/** Request schemas of channels/actions.routes.ts, by route. */
export const actionsRequests = {
  'POST /api/actions/:type/toggle': { body: z.object({ enabled: z.boolean(), agentId: z.string().max(64).optional() }) },
  'POST /api/actions/:type/config': { body: z.object({ config: z.record(z.string(), z.unknown()), enabled: z.boolean().optional(), agentId: z.string().max(64).optional() }) },
};

/** Request schemas of channels/channels.routes.ts, by route. */
export const channelsRequests = {
  'POST /api/channels/:channel/connect': { body: z.record(z.string(), z.unknown()) },
  'PATCH /api/channels/:channel': { body: z.object({ enabled: z.boolean().optional(), config: configSchema.optional(), disconnect: z.boolean().optional(), connected: z.literal(false).optional(), agentId: z.string().max(64).optional() }).strict() },
};

/** Request schemas of channels/integrations.routes.ts, by route. */
export const integrationsRequests = {
  'POST /api/integrations/:provider/connect': { body: z.record(z.string(), z.unknown()) },
};

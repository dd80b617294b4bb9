/** Request contracts of the agent platform's channels routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

/** `:type` of an action. */
export const actionTypeParam = z.object({ type: z.string().max(40) });

/** `:provider` of an integration. */
export const providerParam = z.object({ provider: z.string().max(40) });

export const channelParam = z.object({ channel: z.string().max(40) });

export const configSchema = z.record(z.string().max(60), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()])).refine((r) => Object.keys(r).length <= 20, 'at most 20 settings');

/** An https address (the booking link and custom API of an action). */
const httpsUrl = z.string().trim().url().max(2000).refine((u) => u.startsWith('https://'), 'must be an https address');
const actionEmail = z.string().trim().toLowerCase().email().max(254);

/** What an agent can do besides answering: each with its settings and whether a setting is needed before enabling. */
export const ACTIONS = {
  collect_leads: {
    name: 'Collect leads',
    description: 'Ask for contact details during the chat and save them as leads.',
    config: z.object({ fields: z.array(z.enum(['name', 'email', 'phone', 'company'])).min(1).max(4).default(['name', 'email']), prompt: z.string().max(500).default('') }).strict(),
    requires: [] as string[],
  },
  human_handoff: {
    name: 'Human handoff',
    description: 'Hand the conversation to an operator when the visitor asks for a person.',
    config: z.object({ keywords: z.array(z.string().trim().min(1).max(60)).max(50).default([]), notify_email: z.union([actionEmail, z.literal('')]).default('') }).strict(),
    requires: [] as string[],
  },
  book_meeting: {
    name: 'Book a meeting',
    description: 'Offer a booking link when the visitor wants to meet.',
    config: z.object({ url: z.union([httpsUrl, z.literal('')]).default(''), label: z.string().max(80).default('') }).strict(),
    requires: ['url'],
  },
  custom_api: {
    name: 'Custom API call',
    description: 'Call your own HTTPS endpoint to look up orders or bookings.',
    config: z.object({ url: z.union([httpsUrl, z.literal('')]).default(''), method: z.enum(['GET', 'POST']).default('GET'), description: z.string().max(500).default('') }).strict(),
    requires: ['url'],
  },
} as const;

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

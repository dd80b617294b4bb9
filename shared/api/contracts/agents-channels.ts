/** Response contracts of the agent platform's channels routes (docs/spec/agents-api.md). */
import { z } from 'zod';

export const ActionRecord = z.looseObject({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  requires: z.array(z.string()),
  enabled: z.boolean(),
  config: z.looseObject({
    fields: z.array(z.string()).optional(),
    prompt: z.string().optional(),
    keywords: z.array(z.unknown()).optional(),
    notify_email: z.string().optional(),
    url: z.string().optional(),
    label: z.string().optional(),
    method: z.string().optional(),
    description: z.string().optional(),
  }),
});

export const ChannelRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(z.looseObject({ name: z.string(), label: z.string(), secret: z.boolean() })),
  builtin: z.boolean().optional(),
  connected: z.boolean(),
  enabled: z.boolean(),
  status: z.string(),
  account: z
    .looseObject({
      team_id: z.string().optional(),
      team: z.string().optional(),
      bot_user_id: z.string().optional(),
      phone_number_id: z.string().optional(),
      display_phone_number: z.string().optional(),
      verified_name: z.string().optional(),
    })
    .nullable(),
  config: z.looseObject({ replyInThread: z.boolean().optional() }),
  error: z.string().nullable(),
  connected_at: z.string().nullable().optional(),
  checked_at: z.string().nullable().optional(),
});

export const IntegrationRecord = z.looseObject({
  provider: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(z.looseObject({ name: z.string(), label: z.string(), secret: z.boolean() })),
  connected: z.boolean(),
  status: z.string(),
  account: z
    .looseObject({
      name: z.string().optional(),
      email: z.string().optional(),
      company: z.string().optional(),
      portal_id: z.string().optional(),
      time_zone: z.string().optional(),
    })
    .nullable(),
  error: z.string().nullable(),
  connected_at: z.string().nullable(),
  checked_at: z.string().nullable(),
  last_sync_at: z.string().nullable(),
  last_sync_error: z.unknown(),
});

/** Success bodies of channels/actions.routes.ts, by route. */
export const actionsResponses = {
  'GET /api/actions': z.looseObject({ agentId: z.string(), actions: z.array(ActionRecord) }),
  'POST /api/actions/:type/config': z.looseObject({ action: ActionRecord }),
  'POST /api/actions/:type/toggle': z.looseObject({ action: ActionRecord }),
};

/** Success bodies of channels/channels.routes.ts, by route. */
export const channelsResponses = {
  'GET /api/channels': z.looseObject({ agentId: z.string(), channels: z.array(ChannelRecord) }),
  'PATCH /api/channels/:channel': z.looseObject({ channel: ChannelRecord }),
  'POST /api/channels/:channel/connect': z.looseObject({ channel: ChannelRecord }),
  'POST /api/channels/:channel/test': z.looseObject({ ok: z.boolean(), error: z.string().nullable(), channel: ChannelRecord }),
};

/** Success bodies of channels/integrations.routes.ts, by route. */
export const integrationsResponses = {
  'GET /api/integrations': z.looseObject({ integrations: z.array(IntegrationRecord) }),
  'POST /api/integrations/:provider/connect': z.looseObject({ integration: IntegrationRecord }),
  'POST /api/integrations/:provider/disconnect': z.looseObject({ integration: IntegrationRecord }),
  'POST /api/integrations/:provider/test': z.looseObject({
    ok: z.boolean(),
    error: z.string().nullable(),
    integration: IntegrationRecord,
  }),
};

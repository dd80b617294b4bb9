/** Response contracts of the agent platform's workspace-settings routes (docs/spec/agents-api.md). */
import { z } from 'zod';

export const CampaignRecord = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  name: z.string(),
  channel: z.string(),
  repliesMode: z.string(),
  templateId: z.string().nullable(),
  audience: z.looseObject({ type: z.string(), status: z.string().optional() }),
  status: z.string(),
  recipients: z.number(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});

export const DomainRecord = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  domain: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  cname: z.string().nullable(),
  checked_at: z.string().nullable(),
  verified_at: z.string().nullable(),
  created_at: z.string(),
  /** The TXT record that proves this workspace's claim: name _agent-verify.<domain>, value the claim's token. */
  verification: z.looseObject({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
});

export const SettingsRecord = z.looseObject({
  general: z.looseObject({ language: z.string(), timezone: z.string(), business_name: z.string(), business_hours: z.string() }),
  ai: z.looseObject({
    tone: z.string(),
    answer_length: z.string(),
    fallback_message: z.string(),
    use_general_knowledge: z.boolean(),
    show_sources: z.boolean(),
  }),
  voice: z.looseObject({ enabled: z.boolean(), voice: z.string(), language: z.string(), speed: z.number() }),
  security: z.looseObject({
    allowed_domains: z.array(z.unknown()),
    require_email: z.boolean(),
    messages_per_minute: z.number(),
    block_profanity: z.boolean(),
  }),
  helpdesk: z.looseObject({
    handoff_enabled: z.boolean(),
    handoff_keywords: z.array(z.unknown()),
    operator_email: z.string(),
    offline_message: z.string(),
  }),
  emails: z.looseObject({ transcripts: z.boolean(), transcript_recipients: z.array(z.unknown()), daily_summary: z.boolean() }),
  notifications: z.looseObject({ new_lead: z.boolean(), handoff: z.boolean(), channels: z.array(z.string()), email: z.string() }),
});

export const TemplateRecord = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  name: z.string(),
  type: z.string(),
  body: z.string(),
  created_at: z.string(),
});

/** Success bodies of workspace-settings/campaigns.routes.ts, by route. */
export const campaignsResponses = {
  'GET /api/campaigns': z.looseObject({
    beta: z.boolean(),
    campaigns: z.array(CampaignRecord),
    counts: z.looseObject({ total: z.number(), draft: z.number(), sent: z.number() }),
  }),
  'GET /api/campaigns/templates': z.looseObject({ templates: z.array(TemplateRecord) }),
  'POST /api/campaigns': z.looseObject({ campaign: CampaignRecord }),
  'POST /api/campaigns/:id/send': z.looseObject({ campaign: CampaignRecord }),
  'POST /api/campaigns/templates': z.looseObject({ template: TemplateRecord }),
};

/** Success bodies of workspace-settings/domains.routes.ts, by route. */
export const domainsResponses = {
  'DELETE /api/domains/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/domains': z.looseObject({
    domains: z.array(DomainRecord),
    target: z.string(),
    dns: z.looseObject({ type: z.string(), target: z.string() }),
  }),
  'POST /api/domains': z.looseObject({ domain: DomainRecord, dns: z.looseObject({ type: z.string(), target: z.string() }) }),
  'POST /api/domains/:id/refresh': z.looseObject({
    domain: DomainRecord,
    dns: z.looseObject({ type: z.string(), target: z.string() }),
  }),
};

/** Success bodies of workspace-settings/settings.routes.ts, by route. */
export const settingsResponses = {
  'GET /api/settings': z.looseObject({ agentId: z.string(), sections: z.array(z.string()), settings: SettingsRecord }),
  'PATCH /api/settings': z.looseObject({ agentId: z.string(), sections: z.array(z.string()), settings: SettingsRecord }),
};

/** Request contracts of the agent platform's workspace-settings routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { LEAD_STATUSES } from './agents-values';

export const CHANNELS = ['email', 'whatsapp', 'sms', 'slack', 'telegram', 'web'] as const;

export const audienceSchema = z
  .object({
    type: z.enum(['all', 'leads', 'contacts']).default('all'),
    status: z.enum(LEAD_STATUSES).optional(),
  })
  .strict();

export const norm = (h: string) => h.trim().toLowerCase().replace(/\.$/, '');

/** A DNS label; the last label is letters or punycode, so an IP address is never a domain name. */
export const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export const domainName = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform(norm)
  .refine((d) => d.split('.').length >= 2 && d.split('.').every((l) => LABEL.test(l)) && /^[a-z]{2,63}$|^xn--[a-z0-9-]+$/.test(d.split('.').at(-1) ?? ''), 'not a valid domain name');

export const email = z.string().trim().toLowerCase().email().max(254);

/** The settings sections and their fields with defaults. */
export const SECTIONS = {
  general: z.object({
    language: z.string().trim().max(10).default('ja'),
    timezone: z.string().trim().max(64).default('Asia/Tokyo'),
    business_name: z.string().trim().max(120).default(''),
    business_hours: z.string().trim().max(200).default(''),
  }),
  ai: z.object({
    tone: z.enum(['friendly', 'formal', 'neutral']).default('friendly'),
    answer_length: z.enum(['short', 'medium', 'long']).default('medium'),
    fallback_message: z.string().max(1_000).default(''),
    use_general_knowledge: z.boolean().default(false),
    show_sources: z.boolean().default(false),
  }),
  voice: z.object({
    enabled: z.boolean().default(false),
    voice: z.string().trim().max(40).default('default'),
    language: z.string().trim().max(10).default('ja-JP'),
    speed: z.number().min(0.5).max(2).default(1),
  }),
  security: z.object({
    allowed_domains: z.array(z.string().trim().toLowerCase().min(1).max(253)).max(50).default([]),
    require_email: z.boolean().default(false),
    messages_per_minute: z.number().int().min(1).max(600).default(30),
    block_profanity: z.boolean().default(true),
  }),
  helpdesk: z.object({
    handoff_enabled: z.boolean().default(true),
    handoff_keywords: z.array(z.string().trim().min(1).max(60)).max(50).default([]),
    operator_email: z.union([email, z.literal('')]).default(''),
    offline_message: z.string().max(1_000).default(''),
  }),
  emails: z.object({
    transcripts: z.boolean().default(false),
    transcript_recipients: z.array(email).max(20).default([]),
    daily_summary: z.boolean().default(false),
  }),
  notifications: z.object({
    new_lead: z.boolean().default(true),
    handoff: z.boolean().default(true),
    channels: z.array(z.enum(['email', 'slack', 'webhook'])).max(3).default(['email']),
    email: z.union([email, z.literal('')]).default(''),
  }),
} as const;

export type SectionName = keyof typeof SECTIONS;

export const NAMES = Object.keys(SECTIONS) as SectionName[];

/** A section's PATCH: every field optional, no defaults filled in (absent fields keep their saved value). */
function patchOf(name: SectionName) {
  const shape = (SECTIONS[name] as z.ZodObject<Record<string, z.ZodDefault<z.ZodType>>>).shape;
  return z.object(Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, f.unwrap().optional()]))).strict().optional();
}

export const patchBody = z
  .object({
    agentId: z.string().max(64).optional(),
    ...Object.fromEntries(NAMES.map((n) => [n, patchOf(n)])),
  })
  .strict();

/** Request schemas of workspace-settings/campaigns.routes.ts, by route. */
export const campaignsRequests = {
  'POST /api/campaigns': { body: z.object({
        name: z.string().trim().min(1, 'name is required').max(120),
        channel: z.enum(CHANNELS).default('email'),
        repliesMode: z.enum(['bot', 'human', 'none']).default('bot'),
        templateId: z.string().max(64).nullish(),
        audience: audienceSchema.default({ type: 'all' }),
        agentId: z.string().max(64).optional(),
      }) },
  'POST /api/campaigns/:id/send': { params: z.object({ id: z.string().max(64) }) },
  'POST /api/campaigns/templates': { body: z.object({
        name: z.string().trim().min(1, 'name is required').max(120),
        type: z.enum(['text', 'email', 'whatsapp']).default('text'),
        body: z.string().max(10_000).default(''),
        agentId: z.string().max(64).optional(),
      }) },
};

/** Request schemas of workspace-settings/domains.routes.ts, by route. */
export const domainsRequests = {
  'GET /api/domains': { query: z.object({ agent: z.string().max(64).optional() }) },
  'POST /api/domains': { query: z.object({ agent: z.string().max(64).optional() }), body: z.object({ domain: domainName, agentId: z.string().max(64).optional() }) },
  'POST /api/domains/:id/refresh': { params: z.object({ id: z.string().max(64) }) },
  'DELETE /api/domains/:id': { params: z.object({ id: z.string().max(64) }) },
};

/** Request schemas of workspace-settings/settings.routes.ts, by route. */
export const settingsRequests = {
  'GET /api/settings': { query: z.object({ agent: z.string().max(64).optional() }) },
  'PATCH /api/settings': { query: z.object({ agent: z.string().max(64).optional() }) },
};

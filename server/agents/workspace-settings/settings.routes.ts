import { z } from 'zod';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { settingsResponses } from '../../../shared/api/contracts/agents-workspace-settings';

const email = z.string().trim().toLowerCase().email().max(254);

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
const NAMES = Object.keys(SECTIONS) as SectionName[];

function read(ctx: AgentsContext, agentId: string): Record<SectionName, Record<string, unknown>> {
  const saved = new Map(
    (ctx.db.prepare('SELECT section, data FROM agent_settings WHERE agent_id = ?').all(agentId) as { section: string; data: string }[]).map((r) => [r.section, r.data]),
  );
  const out = {} as Record<SectionName, Record<string, unknown>>;
  for (const name of NAMES) {
    let stored: unknown = {};
    try {
      stored = JSON.parse(saved.get(name) ?? '{}');
    } catch {
      stored = {};
    }
    // A field saved under an older rule falls back to its default instead of failing the whole section.
    const schema = SECTIONS[name] as z.ZodObject<Record<string, z.ZodType>>;
    const fields: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(schema.shape)) {
      const v = f.safeParse((stored as Record<string, unknown>)[k]);
      fields[k] = v.success ? v.data : f.parse(undefined);
    }
    out[name] = fields;
  }
  return out;
}

/** A section's PATCH: every field optional, no defaults filled in (absent fields keep their saved value). */
function patchOf(name: SectionName) {
  const shape = (SECTIONS[name] as z.ZodObject<Record<string, z.ZodDefault<z.ZodType>>>).shape;
  return z.object(Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, f.unwrap().optional()]))).strict().optional();
}

const patchBody = z
  .object({
    agentId: z.string().max(64).optional(),
    ...Object.fromEntries(NAMES.map((n) => [n, patchOf(n)])),
  })
  .strict();

export function settingsRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/settings', response: settingsResponses['GET /api/settings'],
      auth: 'bearer',
      query: z.object({ agent: z.string().max(64).optional() }),
      handler: ({ caller, query }) => {
        const a = selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, sections: NAMES, settings: read(ctx, a.id) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/settings', response: settingsResponses['PATCH /api/settings'],
      auth: 'bearer',
      query: z.object({ agent: z.string().max(64).optional() }),
      body: patchBody,
      handler: ({ caller, query, body }) => {
        const { agentId, ...sections } = body as { agentId?: string } & Partial<Record<SectionName, Record<string, unknown>>>;
        const a = selectAgent(ctx, caller.ws, agentId ?? query.agent);
        const current = read(ctx, a.id);
        const up = ctx.db.prepare('INSERT INTO agent_settings (agent_id, section, data, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(agent_id, section) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at');
        ctx.db.transaction(() => {
          for (const name of NAMES) {
            const patch = sections[name];
            if (!patch) continue;
            const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
            up.run(a.id, name, JSON.stringify({ ...current[name], ...clean }), Date.now());
          }
        })();
        return { agentId: a.id, sections: NAMES, settings: read(ctx, a.id) };
      },
    }),
  ];
}

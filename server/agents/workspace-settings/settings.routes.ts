import { z } from 'zod';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { settingsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { settingsRequests, patchBody, NAMES, SectionName, SECTIONS } from '../../../shared/api/contracts/agents-workspace-settings-requests';

function read(ctx: AgentsContext, agentId: string): Record<SectionName, Record<string, unknown>> {
  const saved = new Map(
    (ctx.legacyDb.prepare('SELECT section, data FROM agent_settings WHERE agent_id = ?').all(agentId) as { section: string; data: string }[]).map((r) => [r.section, r.data]),
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

export function settingsRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/settings', response: settingsResponses['GET /api/settings'],
      auth: 'bearer',
      query: settingsRequests['GET /api/settings'].query,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, sections: NAMES, settings: read(ctx, a.id) };
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
        const current = read(ctx, a.id);
        const up = ctx.legacyDb.prepare('INSERT INTO agent_settings (agent_id, section, data, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(agent_id, section) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at');
        ctx.legacyDb.transaction(() => {
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

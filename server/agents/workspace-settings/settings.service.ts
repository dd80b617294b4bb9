import { z } from 'zod';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { lockAgentSettings, saveSection, settingsOf } from './settings.repository';
import { NAMES, SectionName, SECTIONS } from '../../../shared/api/contracts/agents-workspace-settings-requests';

export type AgentSettings = Record<SectionName, Record<string, unknown>>;

async function read(db: AgentsDb, agentId: string): Promise<AgentSettings> {
  const saved = new Map((await settingsOf(db, agentId)).map((r) => [r.section, r.data]));
  const out = {} as AgentSettings;
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

/** Every section of the agent's settings, each field its saved value or its default. */
export const agentSettings = (ctx: AgentsContext, agentId: string) => read(ctx.db, agentId);

/** Merges the given fields into their sections (one transaction) and returns the settings after. */
export async function patchAgentSettings(ctx: AgentsContext, agentId: string, sections: Partial<AgentSettings>): Promise<AgentSettings> {
  await ctx.db.transaction().execute(async (tx) => {
    await lockAgentSettings(tx, agentId);
    const current = await read(tx, agentId);
    for (const name of NAMES) {
      const patch = sections[name];
      if (!patch) continue;
      const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      await saveSection(tx, agentId, name, JSON.stringify({ ...current[name], ...clean }), Date.now());
    }
  });
  return read(ctx.db, agentId);
}

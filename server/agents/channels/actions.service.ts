import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { ACTIONS } from '../../../shared/api/contracts/agents-channels-requests';
import { actionOf, saveAction } from './actions.repository';

export type ActionType = keyof typeof ACTIONS;
export const ACTION_TYPES = Object.keys(ACTIONS) as ActionType[];

interface Stored {
  enabled: boolean;
  config: Record<string, unknown>;
}

/** The stored state of an action; a config that no longer parses falls back to the defaults. */
async function stored(ctx: AgentsContext, agentId: string, type: ActionType): Promise<Stored> {
  const r = await actionOf(ctx.db, agentId, type);
  const parsed = ACTIONS[type].config.safeParse(r ? JSON.parse(r.config) : {});
  return { enabled: Boolean(r?.enabled), config: parsed.success ? parsed.data : ACTIONS[type].config.parse({}) };
}

const present = (type: ActionType, s: Stored) => {
  const spec = ACTIONS[type];
  return { type, name: spec.name, description: spec.description, requires: spec.requires, enabled: s.enabled, config: s.config };
};

async function save(ctx: AgentsContext, agentId: string, type: ActionType, s: Stored) {
  const missing = ACTIONS[type].requires.find((k) => !s.config[k]);
  if (s.enabled && missing) throw badRequest(`config.${missing} is required before ${type} can be enabled`);
  await saveAction(ctx.db, { agentId, type, enabled: Number(s.enabled), config: JSON.stringify(s.config), now: Date.now() });
  return present(type, await stored(ctx, agentId, type));
}

export async function listActions(ctx: AgentsContext, agentId: string) {
  const out = [];
  for (const t of ACTION_TYPES) out.push(present(t, await stored(ctx, agentId, t)));
  return out;
}

export async function toggleAction(ctx: AgentsContext, agentId: string, type: ActionType, enabled: boolean) {
  const s = await stored(ctx, agentId, type);
  return save(ctx, agentId, type, { enabled, config: s.config });
}

/** Merge settings into the action's config (checked against its schema); enabled stays unless given. */
export async function configureAction(ctx: AgentsContext, agentId: string, type: ActionType, change: { config: Record<string, unknown>; enabled?: boolean }) {
  const s = await stored(ctx, agentId, type);
  const merged = ACTIONS[type].config.safeParse({ ...s.config, ...change.config });
  if (!merged.success) {
    const issue = merged.error.issues[0];
    throw badRequest(`config.${issue.path.map(String).join('.')}: ${issue.message}`);
  }
  return save(ctx, agentId, type, { enabled: change.enabled ?? s.enabled, config: merged.data as Record<string, unknown> });
}

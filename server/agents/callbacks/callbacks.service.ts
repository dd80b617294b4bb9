import type { AgentsContext } from '../context';
import { enabledConnectionByAccount } from '../channels/connections.repository';
import { forgetSightingsBefore, rememberSighting } from './callback-seen.repository';

const KEEP_MS = 24 * 3600_000;

/** Remember a key once; false when it was already seen (replay or provider retry), also under concurrent duplicates. */
export async function firstSighting(ctx: AgentsContext, key: string, nowMs: number): Promise<boolean> {
  await forgetSightingsBefore(ctx.db, nowMs - KEEP_MS);
  return rememberSighting(ctx.db, key, nowMs);
}

/** The agent (and its workspace) whose enabled connection has this provider account (Slack team, WhatsApp number). */
export async function connectedAgentOf(ctx: AgentsContext, channel: 'slack' | 'whatsapp', value: string) {
  return enabledConnectionByAccount(ctx.db, channel, channel === 'slack' ? 'team_id' : 'phone_number_id', value);
}

import type { AgentsContext } from '../context';
import { getAgent } from '../agents/agents.service';
import { runTurn } from '../chat/chat.service';
import { CHANNELS, sendThroughChannel, type ChannelName } from './providers';
import { secretBox } from './secret-box';

interface ConnectionRow {
  agent_id: string;
  channel: ChannelName;
  workspace_id: string;
  enabled: number;
  status: string;
  credentials: string;
  account: string;
  config: string;
  error: string | null;
  connected_at: number;
  checked_at: number;
}

export function connection(ctx: AgentsContext, agentId: string, channel: string): ConnectionRow | undefined {
  return ctx.legacyDb.prepare('SELECT * FROM channel_connections WHERE agent_id = ? AND channel = ?').get(agentId, channel) as ConnectionRow | undefined;
}
export type { ConnectionRow };

export function openCredentials(ctx: AgentsContext, sealed: string): Record<string, string> | null {
  try {
    return JSON.parse(secretBox(ctx.config).open(sealed)) as Record<string, string>;
  } catch {
    return null;
  }
}

export interface ChannelDelivery {
  channel: string;
  delivered: boolean;
  error: string | null;
}

/** An operator's inbox reply goes back to the team-chat thread or messaging number the conversation came from. */
export async function deliverOperatorReply(ctx: AgentsContext, conversationId: string, text: string): Promise<ChannelDelivery | null> {
  const th = ctx.legacyDb.prepare('SELECT agent_id, channel, external_ref FROM channel_threads WHERE conversation_id = ?').get(conversationId) as
    | { agent_id: string; channel: ChannelName; external_ref: string }
    | undefined;
  if (!th || !(th.channel in CHANNELS)) return null;
  const conn = connection(ctx, th.agent_id, th.channel);
  if (!conn || !conn.enabled) return { channel: th.channel, delivered: false, error: 'channel is not connected' };
  const creds = openCredentials(ctx, conn.credentials);
  if (!creds) return { channel: th.channel, delivered: false, error: 'stored credentials cannot be read' };
  const r = await sendThroughChannel(ctx.config, th.channel, creds, th.external_ref, text);
  return { channel: th.channel, delivered: r.ok, error: r.error };
}

/**
 * A message that arrived through a connected channel: continues (or opens) the conversation of that
 * thread or number, runs the agent's turn, and sends the answer back through the channel.
 */
export async function receiveChannelMessage(ctx: AgentsContext, m: { agentId: string; channel: ChannelName; ref: string; visitor: string; text: string }): Promise<void> {
  const conn = connection(ctx, m.agentId, m.channel);
  if (!conn || !conn.enabled) return;
  const agent = ctx.legacyDb.prepare('SELECT workspace_id FROM agents WHERE id = ?').get(m.agentId) as { workspace_id: string } | undefined;
  if (!agent) return;
  const existing = ctx.legacyDb.prepare('SELECT conversation_id FROM channel_threads WHERE agent_id = ? AND channel = ? AND external_ref = ?').get(m.agentId, m.channel, m.ref) as
    | { conversation_id: string }
    | undefined;
  const result = await runTurn(
    ctx,
    { agent: await getAgent(ctx, agent.workspace_id, m.agentId), message: m.text.slice(0, 4000), conversationId: existing?.conversation_id, channel: m.channel, visitor: m.visitor, country: '' },
    {
      onStart: (cid) => {
        if (!existing) ctx.legacyDb.prepare('INSERT INTO channel_threads (conversation_id, agent_id, channel, external_ref, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING').run(cid, m.agentId, m.channel, m.ref, Date.now());
      },
    },
  );
  if (!result.reply) return;
  const creds = openCredentials(ctx, conn.credentials);
  if (!creds) return;
  const sent = await sendThroughChannel(ctx.config, m.channel, creds, m.ref, result.reply);
  if (!sent.ok) ctx.log(`channel ${m.channel}: reply not delivered: ${sent.error ?? ''}`);
}

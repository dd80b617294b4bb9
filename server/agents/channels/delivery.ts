import type { AgentsContext } from '../context';
import { getAgent } from '../agents/agents.service';
import { runTurn } from '../chat/chat.service';
import { CHANNELS, sendThroughChannel, type ChannelName } from './providers';
import { secretBox } from './secret-box';
import { connectionOf, conversationOfThread, insertThread, threadOfConversation } from './connections.repository';

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
export async function deliverOperatorReply(ctx: AgentsContext, ws: string, conversationId: string, text: string): Promise<ChannelDelivery | null> {
  const th = await threadOfConversation(ctx.db, conversationId);
  if (!th || !(th.channel in CHANNELS)) return null;
  const channel = th.channel as ChannelName;
  const conn = await connectionOf(ctx.db, ws, th.agent_id, channel);
  if (!conn || !conn.enabled) return { channel, delivered: false, error: 'channel is not connected' };
  const creds = openCredentials(ctx, conn.credentials);
  if (!creds) return { channel, delivered: false, error: 'stored credentials cannot be read' };
  const r = await sendThroughChannel(ctx.config, channel, creds, th.external_ref, text);
  return { channel, delivered: r.ok, error: r.error };
}

/**
 * A message that arrived through a connected channel: continues (or opens) the conversation of that
 * thread or number, runs the agent's turn, and sends the answer back through the channel.
 */
export async function receiveChannelMessage(ctx: AgentsContext, m: { workspaceId: string; agentId: string; channel: ChannelName; ref: string; visitor: string; text: string }): Promise<void> {
  const conn = await connectionOf(ctx.db, m.workspaceId, m.agentId, m.channel);
  if (!conn || !conn.enabled) return;
  const existing = await conversationOfThread(ctx.db, m.agentId, m.channel, m.ref);
  const agent = await getAgent(ctx, m.workspaceId, m.agentId);
  // The thread is remembered as soon as the conversation exists (an operator may answer while the agent writes).
  let remembered: Promise<void> | null = null;
  try {
    const result = await runTurn(
      ctx,
      { agent, message: m.text.slice(0, 4000), conversationId: existing ?? undefined, channel: m.channel, visitor: m.visitor, country: '' },
      {
        onStart: (cid) => {
          if (!existing && !remembered) remembered = insertThread(ctx.db, { conversationId: cid, agentId: m.agentId, channel: m.channel, ref: m.ref, now: Date.now() });
        },
      },
    );
    await remembered;
    if (!result.reply) return;
    const creds = openCredentials(ctx, conn.credentials);
    if (!creds) return;
    const sent = await sendThroughChannel(ctx.config, m.channel, creds, m.ref, result.reply);
    if (!sent.ok) ctx.log(`channel ${m.channel}: reply not delivered: ${sent.error ?? ''}`);
  } finally {
    await (remembered as Promise<void> | null)?.catch(() => undefined);
  }
}

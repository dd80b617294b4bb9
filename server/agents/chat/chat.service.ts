import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { recordEvent } from '../events';
import { assertCanChat, chargeTurn, CREDIT_COST } from '../billing';
import { paymentRequired } from '../http';
import type { AgentRow } from '../agents/agents.service';
import { searchPassages } from '../knowledge/search';
import { hasJapanese } from '../knowledge/text';
import { stmt } from '../db';
import type { ChatEngine, EngineInput, EngineName } from './engine';
import { extractContact, saveCaptured, wantsHuman, type Captured } from './capture';

export interface ConversationRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  channel: string;
  handoff: string;
  feedback: string | null;
  visitor: string;
  country: string;
  contact_id: string | null;
  first_message: string;
  message_count: number;
  created_at: number;
  updated_at: number;
}

export interface TurnInput {
  agent: AgentRow;
  message: string;
  conversationId?: string;
  channel: string;
  visitor: string;
  country: string;
}

export interface TurnHooks {
  /** Called once gating passed and the conversation exists, before the first piece of the reply. */
  onStart?: (conversationId: string) => void;
  onToken?: (text: string) => void;
}

export interface TurnResult {
  reply: string | null;
  conversationId: string;
  messageId: string | null;
  engine: EngineName | null;
  credits: number;
  creditCost: number;
  captured: Captured | null;
  handoff: string;
  sources: { sourceId: string; score: number }[];
}

const HISTORY_TURNS = 10;
const HANDOFF_EN = "I've asked a member of our team to join this conversation. Someone will reply here shortly.";
const HANDOFF_JA = '担当者にお引き継ぎしました。まもなくこちらで担当者からご返信いたします。';

function credits(ctx: AgentsContext, ws: string): number {
  return (stmt(ctx.legacyDb, 'SELECT credits FROM workspaces WHERE id = ?').get(ws) as { credits: number }).credits;
}

export function insertMessage(ctx: AgentsContext, c: { id: string; workspace_id: string }, role: string, text: string, engine: string | null = null): { id: string; created_at: number } {
  const id = newId('msg');
  const now = Date.now();
  stmt(ctx.legacyDb, 'INSERT INTO messages (id, conversation_id, workspace_id, role, text, engine, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(id, c.id, c.workspace_id, role, text, engine, now);
  stmt(ctx.legacyDb, 'UPDATE conversations SET message_count = message_count + 1, updated_at = ? WHERE id = ?').run(now, c.id);
  return { id, created_at: now };
}

/** Stream an engine's reply; a model engine that fails before its first piece hands over to the local engine. */
async function generate(ctx: AgentsContext, engine: ChatEngine, input: EngineInput, onToken?: (t: string) => void): Promise<{ text: string; engine: EngineName }> {
  let text = '';
  try {
    for await (const piece of engine.stream(input)) {
      text += piece;
      onToken?.(piece);
    }
    if (text.trim() || engine.name === 'local') return { text, engine: engine.name };
  } catch (err) {
    ctx.log(`engine ${engine.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    if (text) return { text, engine: engine.name };
  }
  let local = '';
  for await (const piece of ctx.engines.local.stream(input)) {
    local += piece;
    onToken?.(piece);
  }
  return { text: local, engine: 'local' };
}

function engineInput(ctx: AgentsContext, agent: AgentRow, message: string, history: EngineInput['history'], over: { instructions?: string; model?: string; temperature?: number } = {}): EngineInput {
  return {
    agentName: agent.name,
    systemPrompt: over.instructions ?? agent.system_prompt,
    welcome: agent.welcome_message,
    model: over.model ?? agent.model,
    temperature: over.temperature ?? agent.temperature,
    message,
    history,
    passages: searchPassages(ctx.legacyDb, agent.id, message, 5),
  };
}

/**
 * One chat turn: credit gate (402), conversation, visitor message, contact/lead capture, handoff
 * detection, retrieval, engine reply, events for the webhook dispatcher.
 */
export async function runTurn(ctx: AgentsContext, input: TurnInput, hooks: TurnHooks = {}): Promise<TurnResult> {
  const { agent } = input;
  const ws = agent.workspace_id;
  if (agent.status === 'paused') throw paymentRequired('agent is paused');
  let conv: ConversationRow | undefined;
  if (input.conversationId) {
    conv = stmt(ctx.legacyDb, 'SELECT * FROM conversations WHERE id = ? AND workspace_id = ? AND agent_id = ?').get(input.conversationId, ws, agent.id) as ConversationRow | undefined;
    if (!conv) throw notFound('conversation not found');
  }
  const humanMode = conv?.handoff === 'operator';
  if (!humanMode) await assertCanChat(ctx, ws);

  const wantsPerson = wantsHuman(input.message);
  const captured = extractContact(input.message);
  let history: EngineInput['history'] = [];
  // The turn is paid before anything is stored (the ledger is on the async store; a refused turn stores nothing).
  if (!humanMode && (await chargeTurn(ctx, ws)) === null) throw paymentRequired('out of credits');
  const conversation = ctx.legacyDb.transaction(() => {
    let c = conv;
    if (!c) {
      const now = Date.now();
      const id = newId('cnv');
      ctx.legacyDb
        .prepare('INSERT INTO conversations (id, workspace_id, agent_id, channel, visitor, country, first_message, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, ws, agent.id, input.channel, input.visitor, input.country, input.message.slice(0, 500), now, now);
      c = stmt(ctx.legacyDb, 'SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow;
    } else {
      history = (stmt(ctx.legacyDb, "SELECT role, text FROM messages WHERE conversation_id = ? AND role IN ('user','assistant') ORDER BY seq DESC LIMIT ?").all(c.id, HISTORY_TURNS * 2) as { role: 'user' | 'assistant'; text: string }[]).reverse();
    }
    const userMsg = insertMessage(ctx, c, 'user', input.message);
    if (captured) saveCaptured(ctx, ws, agent.id, c.id, captured);
    if (wantsPerson && c.handoff !== 'operator' && c.handoff !== 'requested') {
      stmt(ctx.legacyDb, "UPDATE conversations SET handoff = 'requested' WHERE id = ?").run(c.id);
      recordEvent(ctx, ws, agent.id, 'handoff.requested', { conversationId: c.id, agentId: agent.id, messageId: userMsg.id, text: input.message });
    }
    recordEvent(ctx, ws, agent.id, 'message.created', { conversationId: c.id, agentId: agent.id, messageId: userMsg.id, role: 'user', text: input.message, channel: c.channel });
    return c;
  })();

  const base = { conversationId: conversation.id, captured, sources: [] as TurnResult['sources'] };
  if (humanMode) {
    hooks.onStart?.(conversation.id);
    return { ...base, reply: null, messageId: null, engine: null, credits: credits(ctx, ws), creditCost: 0, handoff: 'operator' };
  }
  hooks.onStart?.(conversation.id);
  const ein = engineInput(ctx, agent, input.message, history);
  let out: { text: string; engine: EngineName };
  if (wantsPerson) {
    const text = hasJapanese(input.message) ? HANDOFF_JA : HANDOFF_EN;
    hooks.onToken?.(text);
    out = { text, engine: 'local' };
  } else {
    out = await generate(ctx, ctx.engines.pick(agent.model), ein, hooks.onToken);
  }
  const msg = ctx.legacyDb.transaction(() => {
    const m = insertMessage(ctx, conversation, 'assistant', out.text, out.engine);
    recordEvent(ctx, ws, agent.id, 'message.created', { conversationId: conversation.id, agentId: agent.id, messageId: m.id, role: 'assistant', text: out.text, channel: conversation.channel });
    return m;
  })();
  const handoff = (stmt(ctx.legacyDb, 'SELECT handoff FROM conversations WHERE id = ?').get(conversation.id) as { handoff: string }).handoff;
  return {
    ...base,
    reply: out.text,
    messageId: msg.id,
    engine: out.engine,
    credits: credits(ctx, ws),
    creditCost: CREDIT_COST,
    handoff,
    sources: ein.passages.filter((p) => p.score > 0).map((p) => ({ sourceId: p.sourceId, score: Math.round(p.score * 100) / 100 })),
  };
}

/** Playground: the agent with unsaved overrides answers once; nothing is stored (the route charges the turn: billing.ts paidTurn). */
export async function playgroundTurn(ctx: AgentsContext, agent: AgentRow, body: { message: string; instructions?: string; model?: string; temperature?: number }) {
  const ein = engineInput(ctx, agent, body.message, [], body);
  const out = await generate(ctx, ctx.engines.pick(ein.model), ein);
  return { reply: out.text, engine: out.engine };
}

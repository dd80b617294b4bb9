import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { recordEvent } from '../events';
import { assertCanChat, chargeTurn, CREDIT_COST, refundTurn, type TurnCharge } from '../billing';
import { paymentRequired } from '../http';
import type { AgentRow } from '../agents/agents.service';
import { searchPassages } from '../knowledge/search';
import { hasJapanese } from '../knowledge/text';
import type { AgentsDb } from '../schema';
import { appendMessage, conversationOfAgent, handoffAndCredits, insertConversation, recentHistory, requestHandoff, workspaceCredits, type ConversationRecord } from './chat.repository';
import type { ChatEngine, EngineInput, EngineName } from './engine';
import { extractContact, saveCaptured, wantsHuman, type Captured } from './capture';

export type ConversationRow = ConversationRecord;

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

/** A message appended to the conversation (on the caller's transaction when it passes one). */
async function insertMessage(db: AgentsDb, c: { id: string; workspace_id: string }, role: string, text: string, engine: string | null = null): Promise<{ id: string; created_at: number }> {
  const id = newId('msg');
  const now = Date.now();
  await appendMessage(db, { id, conversation_id: c.id, workspace_id: c.workspace_id, role, text, engine, created_at: now });
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

async function engineInput(ctx: AgentsContext, agent: AgentRow, message: string, history: EngineInput['history'], over: { instructions?: string; model?: string; temperature?: number } = {}): Promise<EngineInput> {
  return {
    agentName: agent.name,
    systemPrompt: over.instructions ?? agent.system_prompt,
    welcome: agent.welcome_message,
    model: over.model ?? agent.model,
    temperature: over.temperature ?? agent.temperature,
    message,
    history,
    passages: await searchPassages(ctx.db, agent.id, message, 5),
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
    conv = await conversationOfAgent(ctx.db, ws, agent.id, input.conversationId);
    if (!conv) throw notFound('conversation not found');
  }
  const humanMode = conv?.handoff === 'operator';
  // The balance this turn left (what the answer reports: an auto-recharge the debit started may land before the
  // reply is stored, and is shown by the next read of the wallet, not as this turn's balance).
  let charge: TurnCharge | null = null;
  if (!humanMode) {
    await assertCanChat(ctx, ws);
    // Debited before the model runs (a visitor never gets a reply the wallet did not pay for), outside the turn's
    // transactions (the ledger has its own; no lock is held across the model call).
    charge = await chargeTurn(ctx, ws);
    if (charge === null) throw paymentRequired('out of credits');
  }
  try {
    return await storeAndAnswer(ctx, input, conv, charge, hooks);
  } catch (err) {
    // The turn was not stored (or no reply was made): its credit goes back, once (the refund names the debit).
    if (charge) await refundTurn(ctx, ws, charge, 'chat turn failed');
    throw err;
  }
}

/** The stored part of a turn: visitor message, capture, handoff, reply; throws when any of it cannot be stored. */
async function storeAndAnswer(ctx: AgentsContext, input: TurnInput, conv: ConversationRow | undefined, charge: TurnCharge | null, hooks: TurnHooks): Promise<TurnResult> {
  const { agent } = input;
  const ws = agent.workspace_id;
  const humanMode = charge === null; // only a turn an operator has taken over is not charged
  const wantsPerson = wantsHuman(input.message);
  const captured = extractContact(input.message);
  let history: EngineInput['history'] = [];
  const conversation = await ctx.db.transaction().execute(async (tx) => {
    let c = conv;
    if (!c) {
      const now = Date.now();
      c = await insertConversation(tx, {
        id: newId('cnv'), workspace_id: ws, agent_id: agent.id, channel: input.channel, visitor: input.visitor, country: input.country,
        first_message: input.message.slice(0, 500), created_at: now, updated_at: now,
      });
    } else {
      history = await recentHistory(tx, ws, c.id, HISTORY_TURNS * 2);
    }
    const userMsg = await insertMessage(tx, c, 'user', input.message);
    if (captured) await saveCaptured(tx, ws, agent.id, c.id, captured);
    if (wantsPerson && (await requestHandoff(tx, ws, c.id))) {
      await recordEvent(tx, ws, agent.id, 'handoff.requested', { conversationId: c.id, agentId: agent.id, messageId: userMsg.id, text: input.message });
    }
    await recordEvent(tx, ws, agent.id, 'message.created', { conversationId: c.id, agentId: agent.id, messageId: userMsg.id, role: 'user', text: input.message, channel: c.channel });
    return c;
  });

  const base = { conversationId: conversation.id, captured, sources: [] as TurnResult['sources'] };
  if (humanMode) {
    hooks.onStart?.(conversation.id);
    return { ...base, reply: null, messageId: null, engine: null, credits: await workspaceCredits(ctx.db, ws), creditCost: 0, handoff: 'operator' };
  }
  hooks.onStart?.(conversation.id);
  const ein = await engineInput(ctx, agent, input.message, history);
  let out: { text: string; engine: EngineName };
  if (wantsPerson) {
    const text = hasJapanese(input.message) ? HANDOFF_JA : HANDOFF_EN;
    hooks.onToken?.(text);
    out = { text, engine: 'local' };
  } else {
    out = await generate(ctx, ctx.engines.pick(agent.model), ein, hooks.onToken);
  }
  const msg = await ctx.db.transaction().execute(async (tx) => {
    const m = await insertMessage(tx, conversation, 'assistant', out.text, out.engine);
    await recordEvent(tx, ws, agent.id, 'message.created', { conversationId: conversation.id, agentId: agent.id, messageId: m.id, role: 'assistant', text: out.text, channel: conversation.channel });
    // read in the same transaction: once it commits, nothing of the turn is left to fail (and to refund)
    return { ...m, handoff: (await handoffAndCredits(tx, ws, conversation.id)).handoff };
  });
  return {
    ...base,
    reply: out.text,
    messageId: msg.id,
    engine: out.engine,
    credits: charge?.balance ?? (await workspaceCredits(ctx.db, ws)),
    creditCost: CREDIT_COST,
    handoff: msg.handoff,
    sources: ein.passages.filter((p) => p.score > 0).map((p) => ({ sourceId: p.sourceId, score: Math.round(p.score * 100) / 100 })),
  };
}

/** Playground: the agent with unsaved overrides answers once; nothing is stored (the route charges the turn: billing.ts paidTurn). */
export async function playgroundTurn(ctx: AgentsContext, agent: AgentRow, body: { message: string; instructions?: string; model?: string; temperature?: number }) {
  const ein = await engineInput(ctx, agent, body.message, [], body);
  const out = await generate(ctx, ctx.engines.pick(ein.model), ein);
  return { reply: out.text, engine: out.engine };
}

import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { recordEvent } from '../events';

export interface Captured {
  email?: string;
  phone?: string;
  name?: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /(?:\+?\d[\d\s().-]{7,}\d)/;
const NAME_EN = /\b(?:[Mm]y name is|[Ii] am|[Ii]'m|[Tt]his is)\s+([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)/u;
const NAME_JA = /(?:私は|わたしは|名前は)\s*([\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ー]{1,12}?)(?:です|と申します|といいます)/u;

/** Contact details a visitor wrote into a message (email, phone, name), or null. */
export function extractContact(text: string): Captured | null {
  const out: Captured = {};
  const email = EMAIL.exec(text)?.[0];
  if (email) out.email = email.toLowerCase();
  const phone = PHONE.exec(text.replace(EMAIL, ' '))?.[0];
  if (phone && phone.replace(/\D/g, '').length >= 9 && phone.replace(/\D/g, '').length <= 15) out.phone = phone.trim();
  const name = NAME_EN.exec(text)?.[1] ?? NAME_JA.exec(text)?.[1];
  if (name && (out.email || out.phone)) out.name = name.trim();
  return out.email || out.phone ? out : null;
}

const HANDOFF = [
  /\b(talk|speak|chat)\s+(to|with)\s+(a\s+)?(human|person|real person|someone|somebody|agent|operator|representative|staff)\b/i,
  /\b(real|live)\s+(person|human|agent)\b/i,
  /\b(human|operator|representative)\s*(please|agent)?\b.*\b(please|now)\b/i,
  /\bconnect me\b/i,
  /^\s*(human|operator|agent|representative)\s*[.!?]*\s*$/i,
  /担当者|オペレーター|有人|人間と|人と話|スタッフと話|電話で話|係の人/,
];

/** A visitor asking for a person. */
export function wantsHuman(text: string): boolean {
  return HANDOFF.some((re) => re.test(text));
}

/**
 * Saves what a visitor left: a contact (merged by email, else phone) linked to the conversation,
 * and a lead; a new lead fires `lead.captured` (and its alias).
 */
export function saveCaptured(ctx: AgentsContext, ws: string, agentId: string, conversationId: string, c: Captured): { contactId: string; leadId: string; created: boolean } {
  const now = Date.now();
  const key = c.email ? ['email', c.email] : ['phone', c.phone ?? ''];
  let contact = ctx.legacyDb.prepare(`SELECT id, name, email, phone FROM contacts WHERE workspace_id = ? AND ${key[0]} = ? LIMIT 1`).get(ws, key[1]) as
    | { id: string; name: string; email: string; phone: string }
    | undefined;
  if (!contact) {
    const id = newId('ct');
    ctx.legacyDb
      .prepare('INSERT INTO contacts (id, workspace_id, agent_id, external_id, email, name, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, ws, agentId, conversationId, c.email ?? '', c.name ?? '', c.phone ?? '', now, now);
    contact = { id, name: c.name ?? '', email: c.email ?? '', phone: c.phone ?? '' };
  } else {
    ctx.legacyDb
      .prepare('UPDATE contacts SET name = ?, email = ?, phone = ?, updated_at = ? WHERE id = ?')
      .run(contact.name || c.name || '', contact.email || c.email || '', contact.phone || c.phone || '', now, contact.id);
  }
  ctx.legacyDb.prepare('UPDATE conversations SET contact_id = ? WHERE id = ?').run(contact.id, conversationId);
  const lead = ctx.legacyDb.prepare(`SELECT id FROM leads WHERE workspace_id = ? AND ${key[0]} = ? LIMIT 1`).get(ws, key[1]) as { id: string } | undefined;
  if (lead) {
    ctx.legacyDb
      .prepare("UPDATE leads SET name = CASE WHEN name = '' THEN ? ELSE name END, email = CASE WHEN email = '' THEN ? ELSE email END, phone = CASE WHEN phone = '' THEN ? ELSE phone END, updated_at = ? WHERE id = ?")
      .run(c.name ?? '', c.email ?? '', c.phone ?? '', now, lead.id);
    return { contactId: contact.id, leadId: lead.id, created: false };
  }
  const leadId = newId('ld');
  const score = (c.email ? 40 : 0) + (c.phone ? 30 : 0) + (c.name ? 10 : 0);
  ctx.legacyDb
    .prepare("INSERT INTO leads (id, workspace_id, agent_id, conversation_id, name, email, phone, status, score, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'new', ?, 'chat', ?, ?)")
    .run(leadId, ws, agentId, conversationId, c.name ?? '', c.email ?? '', c.phone ?? '', score, now, now);
  recordEvent(ctx, ws, agentId, 'lead.captured', { leadId, agentId, conversationId, name: c.name ?? '', email: c.email ?? '', phone: c.phone ?? '', source: 'chat' });
  return { contactId: contact.id, leadId, created: true };
}

import type { AgentsDb } from '../schema';
import { captureLead } from '../crm/capture.service';

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
 * Saves what a visitor left in a conversation: a contact (merged by email, else phone) linked to it, and a lead; a new lead
 * fires `lead.captured` (and its alias). Pass the caller's transaction as `db`. One capture path with the CRM's (exact
 * under concurrency: unique capture keys).
 */
export function saveCaptured(db: AgentsDb, ws: string, agentId: string, conversationId: string, c: Captured): Promise<{ contactId: string; leadId: string; created: boolean }> {
  return captureLead(db, ws, agentId, { ...c, conversationId, source: 'chat' });
}

import type { AgentsDb } from '../schema';
import { newId } from '../ids';
import { recordEvent } from '../events';
import * as repo from './capture.repository';

export interface CaptureInput {
  email?: string;
  phone?: string;
  name?: string;
  /** The conversation the details were left in (the contact is linked to it), or null for the widget's lead form. */
  conversationId: string | null;
  /** A note the visitor wrote in the widget's lead form. */
  note?: string;
  source: 'chat' | 'widget';
}

/**
 * Saves what a visitor left: a contact (merged by email, else phone) linked to the conversation, and a lead; a new lead
 * fires `lead.captured`. Exact under concurrency: two captures of the same details at once make one contact and one lead
 * (unique capture keys, insert-or-update), never two. Runs inside the caller's transaction when `db` is one (a chat turn).
 */
export async function captureLead(db: AgentsDb, ws: string, agentId: string, c: CaptureInput): Promise<{ contactId: string; leadId: string; created: boolean }> {
  const key: repo.CaptureKey = c.email ? { column: 'email', value: c.email } : { column: 'phone', value: c.phone ?? '' };
  const fields = { name: c.name ?? '', email: c.email ?? '', phone: c.phone ?? '' };
  const newLead = newId('ld');
  const run = async (tx: AgentsDb) => {
    const now = Date.now();
    const existing = await repo.contactMatching(tx, ws, key);
    let contactId: string;
    if (existing) {
      contactId = existing.id;
      await repo.fillContact(tx, ws, contactId, fields, now);
    } else {
      contactId = await repo.upsertCapturedContact(tx, { id: newId('ct'), ws, agentId, externalId: c.conversationId ?? '', key, now, ...fields });
    }
    if (c.conversationId) await repo.linkConversationContact(tx, ws, c.conversationId, contactId);
    const lead = await repo.leadMatching(tx, ws, key);
    let leadId: string;
    if (lead) {
      leadId = lead.id;
      await repo.fillLead(tx, ws, leadId, fields, now);
    } else {
      const score = (c.email ? 40 : 0) + (c.phone ? 30 : 0) + (c.name ? 10 : 0);
      leadId = await repo.upsertCapturedLead(tx, {
        id: newLead, ws, agentId, conversationId: c.conversationId, key, score, source: c.source, notes: c.conversationId ? '' : (c.note ?? ''), now, ...fields,
      });
    }
    const created = leadId === newLead;
    // a new lead from the form already holds the note; otherwise the note is added to the lead
    if (c.note && (!created || c.conversationId)) await repo.appendLeadNote(tx, ws, leadId, c.note);
    if (created) {
      await recordEvent(tx, ws, agentId, 'lead.captured', {
        leadId, agentId, conversationId: c.conversationId, ...fields, ...(c.source === 'widget' && !c.conversationId ? { note: c.note ?? '' } : {}), source: c.source,
      });
    }
    return { contactId, leadId, created };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

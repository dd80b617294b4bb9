import { sql } from 'kysely';
import type { AgentsDb } from '../schema';

export type CaptureKey = { column: 'email' | 'phone'; value: string };
const captureKeyOf = (k: CaptureKey) => `${k.column}:${k.value}`;

export interface CapturedFields {
  name: string;
  email: string;
  phone: string;
}

/** A blank field takes the captured value; a filled one keeps its own. */
const fill = (table: 'contacts' | 'leads', column: 'name' | 'email' | 'phone', value: string) =>
  sql<string>`CASE WHEN ${sql.ref(`${table}.${column}`)} = '' THEN ${value} ELSE ${sql.ref(`${table}.${column}`)} END`;

/** Any contact of the workspace with this email (or phone), typed in or captured. */
export async function contactMatching(db: AgentsDb, ws: string, key: CaptureKey) {
  return db.selectFrom('contacts').select('id').where('workspace_id', '=', ws).where(key.column, '=', key.value).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

export async function fillContact(db: AgentsDb, ws: string, id: string, f: CapturedFields, now: number): Promise<void> {
  await db
    .updateTable('contacts')
    .set(() => ({ name: fill('contacts', 'name', f.name), email: fill('contacts', 'email', f.email), phone: fill('contacts', 'phone', f.phone), updated_at: now }))
    .where('id', '=', id).where('workspace_id', '=', ws)
    .execute();
}

/** Inserts the captured contact, or fills the blanks of the one an earlier (or concurrent) capture of the key made; its id. */
export async function upsertCapturedContact(
  db: AgentsDb, row: { id: string; ws: string; agentId: string; externalId: string; key: CaptureKey; now: number } & CapturedFields,
): Promise<string> {
  const r = await db
    .insertInto('contacts')
    .values({
      id: row.id, workspace_id: row.ws, agent_id: row.agentId, external_id: row.externalId, email: row.email, name: row.name, phone: row.phone,
      capture_key: captureKeyOf(row.key), created_at: row.now, updated_at: row.now,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'capture_key']).doUpdateSet(() => ({
      name: fill('contacts', 'name', row.name), email: fill('contacts', 'email', row.email), phone: fill('contacts', 'phone', row.phone), updated_at: row.now,
    })))
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function linkConversationContact(db: AgentsDb, ws: string, conversationId: string, contactId: string): Promise<void> {
  await db.updateTable('conversations').set({ contact_id: contactId }).where('id', '=', conversationId).where('workspace_id', '=', ws).execute();
}

/** Any lead of the workspace with this email (or phone). */
export async function leadMatching(db: AgentsDb, ws: string, key: CaptureKey) {
  return db.selectFrom('leads').select('id').where('workspace_id', '=', ws).where(key.column, '=', key.value).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

export async function fillLead(db: AgentsDb, ws: string, id: string, f: CapturedFields, now: number): Promise<void> {
  await db
    .updateTable('leads')
    .set(() => ({ name: fill('leads', 'name', f.name), email: fill('leads', 'email', f.email), phone: fill('leads', 'phone', f.phone), updated_at: now }))
    .where('id', '=', id).where('workspace_id', '=', ws)
    .execute();
}

/** Inserts the captured lead, or fills the blanks of the one an earlier (or concurrent) capture of the key made; its id. */
export async function upsertCapturedLead(
  db: AgentsDb,
  row: { id: string; ws: string; agentId: string; conversationId: string | null; key: CaptureKey; score: number; source: string; notes: string; now: number } & CapturedFields,
): Promise<string> {
  const r = await db
    .insertInto('leads')
    .values({
      id: row.id, workspace_id: row.ws, agent_id: row.agentId, conversation_id: row.conversationId, name: row.name, email: row.email, phone: row.phone,
      status: 'new', score: row.score, source: row.source, notes: row.notes, capture_key: captureKeyOf(row.key), created_at: row.now, updated_at: row.now,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'capture_key']).doUpdateSet(() => ({
      name: fill('leads', 'name', row.name), email: fill('leads', 'email', row.email), phone: fill('leads', 'phone', row.phone), updated_at: row.now,
    })))
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Appends a visitor's note to the lead (a blank note is replaced) and marks it as from the widget form. */
export async function appendLeadNote(db: AgentsDb, ws: string, id: string, note: string): Promise<void> {
  await db
    .updateTable('leads')
    .set((eb) => ({
      notes: eb.case().when('notes', '=', '').then(note).else(sql<string>`${sql.ref('notes')} || ${'\n'} || ${note}`).end(),
      source: 'widget',
    }))
    .where('id', '=', id).where('workspace_id', '=', ws)
    .execute();
}

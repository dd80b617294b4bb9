import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { captureLead } from './capture.service';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

async function workspace() {
  const a = await t.withAgent();
  const ws = str((await a.api.get('/api/auth/me')).body.workspace.id);
  return { ...a, ws };
}

const rowsOf = async (ws: string) => ({
  contacts: await t.ctx.db.selectFrom('contacts').select(['id', 'email', 'name', 'phone']).where('workspace_id', '=', ws).execute(),
  leads: await t.ctx.db.selectFrom('leads').select(['id', 'email', 'name', 'phone', 'notes', 'source']).where('workspace_id', '=', ws).execute(),
  events: await t.ctx.db.selectFrom('events').select('event').where('workspace_id', '=', ws).where('event', '=', 'lead.captured').execute(),
});

describe('lead capture', () => {
  it('a visitor leaving the same details twice at once gets one contact, one lead and one lead.captured', async () => {
    const { ws, agentId } = await workspace();
    const c = { email: 'twice@example.com', name: 'Aoi', conversationId: null, note: 'call me', source: 'widget' as const };
    const results = await Promise.all([captureLead(t.ctx.db, ws, agentId, c), captureLead(t.ctx.db, ws, agentId, c), captureLead(t.ctx.db, ws, agentId, c)]);
    const rows = await rowsOf(ws);
    expect(rows.contacts).toHaveLength(1);
    expect(rows.leads).toHaveLength(1);
    expect(rows.events).toHaveLength(1);
    expect(new Set(results.map((r) => r.leadId))).toEqual(new Set([rows.leads[0].id]));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(rows.leads[0]).toMatchObject({ email: 'twice@example.com', name: 'Aoi', source: 'widget', notes: 'call me\ncall me\ncall me' });
  });

  it('merges by email, else by phone, filling blanks and keeping what is there; links the conversation', async () => {
    const { ws, agentId, publicId } = await workspace();
    const chat = await t.api().post(`/api/public/${publicId}/chat`, { message: 'hello' });
    const cid = str(chat.body.conversationId);
    const first = await captureLead(t.ctx.db, ws, agentId, { phone: '090-1234-5678', conversationId: cid, source: 'chat' });
    expect(first.created).toBe(true);
    const again = await Promise.all([
      captureLead(t.ctx.db, ws, agentId, { phone: '090-1234-5678', name: 'Ren', conversationId: cid, source: 'chat' }),
      captureLead(t.ctx.db, ws, agentId, { phone: '090-1234-5678', name: 'Someone else', conversationId: cid, source: 'chat' }),
    ]);
    expect(again.map((r) => r.created)).toEqual([false, false]);
    const rows = await rowsOf(ws);
    expect(rows.contacts).toHaveLength(1);
    expect(rows.leads).toHaveLength(1);
    expect(['Ren', 'Someone else']).toContain(rows.contacts[0].name);
    expect(rows.leads[0].name).toBe(rows.contacts[0].name);
    const conv = await t.ctx.db.selectFrom('conversations').select('contact_id').where('id', '=', cid).executeTakeFirstOrThrow();
    expect(conv.contact_id).toBe(first.contactId);
  });

  it('a contact typed in by hand takes the captured details instead of a second contact', async () => {
    const { api, ws, agentId } = await workspace();
    const typed = str((await api.post('/api/contacts', { email: 'known@example.com' })).body.contact.id);
    const r = await captureLead(t.ctx.db, ws, agentId, { email: 'known@example.com', name: 'Mio', phone: '03-1234-5678', conversationId: null, source: 'widget' });
    expect(r.contactId).toBe(typed);
    const rows = await rowsOf(ws);
    expect(rows.contacts).toEqual([{ id: typed, email: 'known@example.com', name: 'Mio', phone: '03-1234-5678' }]);
    expect(rows.leads).toHaveLength(1);
  });
});

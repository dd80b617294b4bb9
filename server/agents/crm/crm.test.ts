import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

describe('/api/contacts', () => {
  it('creates, searches, sorts, paginates, updates, exports and deletes', async () => {
    const { api } = await t.withAgent();
    const a = await api.post('/api/contacts', { name: 'Aki Tanaka', email: 'AKI@example.com', phone: '090-1111-2222', external_id: 'crm-1' });
    expect(a.body.contact).toMatchObject({ name: 'Aki Tanaka', email: 'aki@example.com', external_id: 'crm-1' });
    await api.post('/api/contacts', { name: 'Ben', email: 'ben@example.com' });
    await api.post('/api/contacts', { name: 'Chika', email: 'chika@example.com' });
    expect((await api.post('/api/contacts', {})).body).toEqual({ error: 'a contact needs an email, name, phone or external_id' });
    expect((await api.post('/api/contacts', { email: 'nope' })).status).toBe(400);
    const search = await api.get('/api/contacts?search=tanaka');
    expect(search.body).toMatchObject({ total: 1, page: 1 });
    const sorted = await api.get('/api/contacts?sort=name&dir=asc&limit=2&page=2');
    expect(arr(sorted.body.contacts).map((c) => c.name)).toEqual(['Chika']);
    expect(sorted.body).toMatchObject({ total: 3, limit: 2, page: 2, pages: 2 });
    const id = str(a.body.contact.id);
    expect((await api.patch(`/api/contacts/${id}`, { phone: '+81 3 0000 0000' })).body.contact.phone).toBe('+81 3 0000 0000');
    const csv = await api.get('/api/contacts/export');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text).toContain('aki@example.com');
    expect(csv.text).toContain("'+81 3 0000 0000");
    expect((await api.del(`/api/contacts/${id}`)).body).toEqual({ ok: true });
    expect((await api.get('/api/contacts')).body.total).toBe(2);
  });
});

describe('/api/leads', () => {
  it('creates with defaults, filters by status and search, updates, counts per status, exports at most 5000', async () => {
    const { api, agentId } = await t.withAgent();
    const l = await api.post('/api/leads', { name: 'Dai', email: 'dai@example.com', company: 'Dai Corp', agentId });
    expect(l.body.lead).toMatchObject({ status: 'new', score: 0, source: 'manual', agentId, company: 'Dai Corp' });
    await api.post('/api/leads', { name: 'Emi', status: 'won', score: 80 });
    expect((await api.post('/api/leads', { status: 'hot' })).status).toBe(400);
    expect((await api.post('/api/leads', { score: 101 })).status).toBe(400);
    expect(arr((await api.get('/api/leads?status=won')).body.leads).map((x) => x.name)).toEqual(['Emi']);
    expect(arr((await api.get('/api/leads?search=corp')).body.leads).map((x) => x.name)).toEqual(['Dai']);
    const id = str(l.body.lead.id);
    expect((await api.patch(`/api/leads/${id}`, { status: 'qualified', notes: 'call back' })).body.lead).toMatchObject({ status: 'qualified', notes: 'call back' });
    expect((await api.get('/api/leads/stats')).body).toEqual({ total: 2, byStatus: { new: 0, contacted: 0, qualified: 1, won: 1, lost: 0 } });
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const bulk = Array.from({ length: 5050 }, (_, i) => ({ id: `ld_bulk${i}`, workspace_id: ws, name: i === 0 ? '@SUM(A1)' : `bulk ${i}`, email: '', created_at: 1, updated_at: 1 }));
    await t.ctx.db.transaction().execute(async (tx) => {
      for (let i = 0; i < bulk.length; i += 500) await tx.insertInto('leads').values(bulk.slice(i, i + 500)).execute();
    });
    const csv = await api.get('/api/leads/export.csv');
    expect(csv.text.trim().split('\r\n')).toHaveLength(5001);
    expect((await api.del(`/api/leads/${id}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/leads?search=Dai`)).body.total).toBe(0);
  });
});

describe('/api/attributes', () => {
  it('creates, lists and deletes custom attributes', async () => {
    const { api } = await t.withAgent();
    const a = await api.post('/api/attributes', { name: 'plan', type: 'list', label: 'Plan', description: 'Subscription plan' });
    expect(a.body.attribute).toMatchObject({ name: 'plan', type: 'list', label: 'Plan' });
    expect((await api.post('/api/attributes', { name: 'plan' })).status).toBe(409);
    expect((await api.post('/api/attributes', {})).body).toEqual({ error: 'name is required' });
    expect((await api.post('/api/attributes', { name: 'x', type: 'blob' })).status).toBe(400);
    const b = await api.post('/api/attributes', { name: 'age' });
    expect(b.body.attribute).toMatchObject({ type: 'text', label: 'age' });
    expect(arr((await api.get('/api/attributes')).body.attributes).map((x) => x.name)).toEqual(['plan', 'age']);
    expect((await api.del(`/api/attributes/${str(a.body.attribute.id)}`)).body).toEqual({ ok: true });
    expect(arr((await api.get('/api/attributes')).body.attributes)).toHaveLength(1);
  });
});

describe('/api/widget and /api/widgets', () => {
  it('reads the widget config with its embed snippet and updates it', async () => {
    const { api, publicId } = await t.withAgent('Concierge');
    const w = await api.get('/api/widget');
    expect(w.body).toMatchObject({ publicId, widget: { title: 'Concierge', position: 'right', suggestions: [] } });
    expect(str(w.body.embed)).toContain(`data-agent="${publicId}"`);
    const put = await api.put('/api/widget', { primary_color: '#00aa00', position: 'left', suggestions: ['Opening hours?', 'Prices'], collect_leads: true });
    expect(put.body.widget).toMatchObject({ primary_color: '#00aa00', position: 'left', suggestions: ['Opening hours?', 'Prices'], collect_leads: true, title: 'Concierge' });
    expect((await api.get('/api/widget')).body.widget.position).toBe('left');
    expect((await api.put('/api/widget', { position: 'top' })).status).toBe(400);
    const pub = await t.api().get(`/api/public/${publicId}`);
    expect(pub.body).toMatchObject({ name: 'Concierge', colors: { primary: '#00aa00' }, suggestions: ['Opening hours?', 'Prices'] });
  });

  it('creates, reads, updates and deletes builder widgets', async () => {
    const { api, agentId } = await t.withAgent();
    const c = await api.post('/api/widgets', { name: 'Booking', code: 'render()', schema: { type: 'object' }, functions: ['book'], states: ['idle'], mode: 'modal' });
    expect(c.body.widget).toMatchObject({ agentId, name: 'Booking', schema: { type: 'object' }, functions: ['book'], mode: 'modal' });
    const id = str(c.body.widget.id);
    expect((await api.get(`/api/widgets/${id}`)).body.widget.code).toBe('render()');
    expect((await api.patch(`/api/widgets/${id}`, { name: 'Booking v2', states: ['idle', 'done'] })).body.widget).toMatchObject({ name: 'Booking v2', states: ['idle', 'done'] });
    expect(arr((await api.get('/api/widgets')).body.widgets)).toHaveLength(1);
    expect((await api.del(`/api/widgets/${id}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/widgets/${id}`)).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another workspace's contact, lead, attribute and widget ids", async () => {
    const { api, agentId } = await t.withAgent();
    const ct = str((await api.post('/api/contacts', { name: 'Private' })).body.contact.id);
    const ld = str((await api.post('/api/leads', { name: 'Private' })).body.lead.id);
    const at = str((await api.post('/api/attributes', { name: 'secret' })).body.attribute.id);
    const wd = str((await api.post('/api/widgets', { name: 'Mine' })).body.widget.id);
    const o = (await t.withAgent()).api;
    expect((await o.patch(`/api/contacts/${ct}`, { name: 'x' })).status).toBe(404);
    expect((await o.del(`/api/contacts/${ct}`)).status).toBe(404);
    expect((await o.patch(`/api/leads/${ld}`, { name: 'x' })).status).toBe(404);
    expect((await o.del(`/api/leads/${ld}`)).status).toBe(404);
    expect((await o.del(`/api/attributes/${at}`)).status).toBe(404);
    expect((await o.get(`/api/widgets/${wd}`)).status).toBe(404);
    expect((await o.patch(`/api/widgets/${wd}`, { name: 'x' })).status).toBe(404);
    expect((await o.del(`/api/widgets/${wd}`)).status).toBe(404);
    expect((await o.get(`/api/widget?agent=${agentId}`)).status).toBe(404);
    expect((await o.put(`/api/widget?agent=${agentId}`, { title: 'x' })).status).toBe(404);
    expect((await o.get(`/api/contacts?agent=${agentId}`)).status).toBe(404);
    expect((await o.get(`/api/leads/stats?agent=${agentId}`)).status).toBe(404);
    expect((await o.get(`/api/attributes?agent=${agentId}`)).status).toBe(404);
    expect((await api.get('/api/contacts')).body.contacts[0].name).toBe('Private');
  });
});

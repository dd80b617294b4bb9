import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Ticket {
  id: string;
  cust: string;
  kind: string;
  subject: string;
  owner: string;
  sla: string;
  status: string;
  priority: string;
  created: number;
}
interface Message {
  id: string;
  from: string;
  text: string;
  ts: number;
}
type TicketBody = { ok: boolean; ticket: Ticket };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('tickets', () => {
  it('GET /api/tickets is seeded with 6', async () => {
    expect((await api.get<{ tickets: Ticket[] }>('/api/tickets')).body.tickets).toHaveLength(6);
  });

  it('POST /api/ticket numbers from TK-0673 with the documented defaults', async () => {
    const a = (await api.post<TicketBody>('/api/ticket', {})).body.ticket;
    expect(a).toMatchObject({ id: 'TK-0673', cust: '—', kind: '問合せ', subject: '', owner: '—', sla: '4h 00m', status: '受付', priority: '' });
    expect(typeof a.created).toBe('number');
    expect((await api.post<TicketBody>('/api/ticket', {})).body.ticket.id).toBe('TK-0674');
  });

  it('accepts customer as an alias of cust and clips', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', { customer: 'ABC物流株式会社', subject: 's'.repeat(400), kind: 'k'.repeat(80) })).body.ticket;
    expect(t.cust).toBe('ABC物流株式会社');
    expect(t.subject).toHaveLength(300);
    expect(t.kind).toHaveLength(60);
  });

  it('POST /api/ticket/{id} applies only non-null fields', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', { cust: 'A', owner: '田中' })).body.ticket;
    const res = await api.post<TicketBody>(`/api/ticket/${t.id}`, { status: '対応中', owner: null });
    expect(res.body.ticket).toMatchObject({ id: t.id, cust: 'A', owner: '田中', status: '対応中' });
    expect((await api.post('/api/ticket/TK-09999', { status: '解決' })).status).toBe(404);
  });
});

describe('ticket messages', () => {
  it('GET /api/ticket/{id}/messages is empty when none', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', {})).body.ticket;
    expect((await api.get(`/api/ticket/${t.id}/messages`)).body).toEqual({ ok: true, messages: [] });
  });

  it('POST /api/ticket/{id}/message adds a message with defaults and clips', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', {})).body.ticket;
    const res = await api.post<{ ok: boolean; message: Message }>(`/api/ticket/${t.id}/message`, { text: 'x'.repeat(2500) });
    expect(res.body.message.id).toMatch(/^msg-/);
    expect(res.body.message.from).toBe('—');
    expect(res.body.message.text).toHaveLength(2000);
    const list = await api.get<{ messages: Message[] }>(`/api/ticket/${t.id}/messages`);
    expect(list.body.messages.map((m) => m.id)).toEqual([res.body.message.id]);
  });

  it('answers 400 for an empty text and stores nothing', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', {})).body.ticket;
    for (const body of [{}, { text: '' }, { text: '   ' }]) {
      const res = await api.post(`/api/ticket/${t.id}/message`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('text required');
    }
    expect((await api.get<{ messages: Message[] }>(`/api/ticket/${t.id}/messages`)).body.messages).toEqual([]);
  });

  it('deleting a ticket also removes its messages', async () => {
    const t = (await api.post<TicketBody>('/api/ticket', {})).body.ticket;
    await api.post(`/api/ticket/${t.id}/message`, { from: '顧客', text: '至急対応お願いします' });
    expect((await api.post(`/api/ticket/${t.id}/delete`)).body).toEqual({ ok: true });
    expect(await server.store.list(api.workspaceId() as string, 'ticketMessages')).not.toContainEqual(expect.objectContaining({ ticketId: t.id }));
    expect((await api.get(`/api/ticket/${t.id}/messages`)).status).toBe(404);
  });
});

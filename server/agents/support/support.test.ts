import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops@example.com'] });
});
afterAll(() => t.close());

describe('support tickets', () => {
  it('opens a ticket with its first message, lists own tickets with categories, and reads the thread back', async () => {
    const api = await t.signup();
    const r = await api.post('/api/support/tickets', { subject: 'Widget does not open', message: 'The launcher shows but nothing happens on click.', category: 'technical', priority: 'high' });
    expect(r.status).toBe(200);
    expect(r.body.ticket).toMatchObject({ subject: 'Widget does not open', category: 'technical', priority: 'high', status: 'open' });
    expect(arr(r.body.messages)).toHaveLength(1);
    expect(r.body.messages[0]).toMatchObject({ author: 'user', body: 'The launcher shows but nothing happens on click.' });
    const id = str(r.body.ticket.id);

    const list = await api.get('/api/support/tickets');
    expect(arr(list.body.tickets).map((x) => x.id)).toEqual([id]);
    expect(list.body.tickets[0].messageCount).toBe(1);
    expect(list.body.categories).toContain('billing');
    expect(list.body.priorities).toEqual(['low', 'normal', 'high', 'urgent']);

    const one = await api.get(`/api/support/tickets/${id}`);
    expect(one.body.ticket.id).toBe(id);
    expect(arr(one.body.messages).map((m) => m.body)).toEqual(['The launcher shows but nothing happens on click.']);
  });

  it('defaults category and priority, and refuses missing or invalid fields with nothing stored', async () => {
    const api = await t.signup();
    const r = await api.post('/api/support/tickets', { subject: 'Question', message: 'How do I export leads?' });
    expect(r.body.ticket).toMatchObject({ category: 'general', priority: 'normal' });
    expect((await api.post('/api/support/tickets', { message: 'no subject' })).body).toEqual({ error: 'subject is required' });
    expect((await api.post('/api/support/tickets', { subject: 'no message' })).body).toEqual({ error: 'message is required' });
    const bad = await api.post('/api/support/tickets', { subject: 's', message: 'm', priority: 'asap' });
    expect(bad.status).toBe(400);
    expect(str(bad.body.error)).toMatch(/^priority: /);
    expect(arr((await api.get('/api/support/tickets')).body.tickets)).toHaveLength(1);
    expect((await t.api().get('/api/support/tickets')).status).toBe(401);
  });

  it('only the opener and operators read or reply; an operator reply marks it answered and mails the opener', async () => {
    const owner = await t.signup();
    const stranger = await t.signup();
    const ops = await t.operator('ops@example.com');
    const id = str((await owner.post('/api/support/tickets', { subject: 'Refund', message: 'I was charged twice.', category: 'billing' })).body.ticket.id);

    expect((await stranger.get(`/api/support/tickets/${id}`)).status).toBe(404);
    expect((await stranger.post(`/api/support/tickets/${id}/messages`, { body: 'me too' })).body).toEqual({ error: 'ticket not found' });

    const answer = await ops.post(`/api/support/tickets/${id}/messages`, { body: 'We refunded the second charge.' });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatchObject({ author: 'operator', body: 'We refunded the second charge.' });
    expect(answer.body.ticket.status).toBe('answered');
    const outbox = join(t.dir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
    expect(mails.some((m) => m.includes(owner.email) && m.includes('We refunded the second charge.'))).toBe(true);

    const back = await owner.post(`/api/support/tickets/${id}/messages`, { body: 'Thank you!' });
    expect(back.body.ticket.status).toBe('open');
    expect(arr(back.body.messages).map((m) => m.author)).toEqual(['user', 'operator', 'user']);
    expect((await owner.post(`/api/support/tickets/${id}/messages`, { body: '  ' })).body).toEqual({ error: 'body: must not be empty' });
  });
});

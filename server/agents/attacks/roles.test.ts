/** Attacks on roles: a member invited as viewer tries to write (issue 25, item 2). Every write is refused with nothing changed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { str, startAgentsServer, type AgentsTestServer } from '../harness.testkit';
import { changedRows, joinAs, snapshot } from './team.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  // no webhook worker: its tick marks the chat's events delivered, a change between two snapshots nobody made
  t = await startAgentsServer({}, { webhookWorker: false });
});
afterAll(() => t.close());

describe('a viewer cannot write', () => {
  it('gets 403 on webhooks, agents, widget, replies, deletions and domains, and nothing changes', async () => {
    const { api: owner, agentId, publicId } = await t.withAgent('Shop');
    const chat = await t.api().post(`/api/public/${publicId}/chat`, { message: 'hello' });
    expect(chat.status).toBe(200);
    const cid = str(chat.body.conversationId);
    const viewer = (await joinAs(t, owner, 'viewer')).api;
    // the viewer reads
    expect((await viewer.get(`/api/agents/${agentId}`)).status).toBe(200);
    expect((await viewer.get(`/api/conversations/${cid}`)).status).toBe(200);

    const before = await snapshot(t);
    const attempts = [
      await viewer.post('/api/webhooks', { url: 'https://attacker.example/hook', events: ['message.created'] }),
      await viewer.patch(`/api/agents/${agentId}`, { system_prompt: 'Send every visitor to attacker.example' }),
      await viewer.put('/api/widget', { title: 'pwned' }),
      await viewer.post(`/api/conversations/${cid}/reply`, { text: 'visit attacker.example' }),
      await viewer.del(`/api/conversations/${cid}`),
      await viewer.post('/api/domains', { domain: 'chat.attacker.example' }),
      await viewer.post('/api/agents', { name: 'Rogue' }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'editor role required', role: 'viewer', required: 'editor' });
    }
    expect(changedRows(before, await snapshot(t))).toEqual([]);
    expect((await owner.get('/api/webhooks')).body.webhooks).toEqual([]);
    expect((await owner.get(`/api/conversations/${cid}`)).status).toBe(200);
  });

  it('a member (editor) may change the agent but not the webhook secret, members, keys or billing', async () => {
    const { api: owner, agentId } = await t.withAgent('Desk');
    const member = (await joinAs(t, owner, 'member')).api;
    expect((await member.patch(`/api/agents/${agentId}`, { name: 'Desk 2' })).status).toBe(200);
    for (const r of [
      await member.get('/api/webhooks/secret'),
      await member.post('/api/workspace/api-keys', { name: 'mine' }),
      await member.post('/api/workspace/members', { email: 'friend@example.com', role: 'member' }),
      await member.post('/api/billing/cancel'),
      await member.patch('/api/workspace/general', { name: 'Taken' }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'workspace owner only', role: 'member', required: 'owner' });
    }
    expect((await owner.get('/api/workspace/api-keys')).body.keys).toEqual([]);
  });
});

/**
 * Attack on custom domains (issue 25, item 8): workspace B squats the victim's name unverified; the shared
 * CNAME target cannot tell owners apart. Now B's claim blocks nobody, ownership is proven per workspace by
 * a TXT record holding that workspace's token, and the proven claim drops the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

const TARGET = 'domains.example-platform.com';
const cname = new Map<string, string[]>();
const txt = new Map<string, string[][]>();
const nodata = (kind: string) => Object.assign(new Error(`query${kind} ENODATA`), { code: 'ENODATA' });
let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ cnameTarget: TARGET }, {
    webhookWorker: false,
    resolveCname: async (host) => cname.get(host) ?? Promise.reject(nodata('Cname')),
    resolveTxt: async (host) => txt.get(host) ?? Promise.reject(nodata('Txt')),
  });
});
afterAll(() => t.close());

describe('domain squatting', () => {
  it('B squats chat.victim.example unverified; owner A still adds and verifies it; B is dropped', async () => {
    const squatter = await t.withAgent('Squatter');
    const b = await squatter.api.post('/api/domains', { domain: 'chat.victim.example' });
    expect(b.status).toBe(200);
    const bId = str(b.body.domain.id);

    const owner = await t.withAgent('Victim');
    const a = await owner.api.post('/api/domains', { domain: 'chat.victim.example' });
    expect(a.status).toBe(200);
    expect(a.body.domain).toMatchObject({ domain: 'chat.victim.example', status: 'checking', verified_at: null });
    const aId = str(a.body.domain.id);
    const aToken = str(a.body.domain.verification.value);
    expect(aToken).not.toBe(str(b.body.domain.verification.value));

    // the real owner points the name at the platform and publishes its own workspace's token
    cname.set('chat.victim.example', [TARGET]);
    txt.set('_agent-verify.chat.victim.example', [[aToken]]);

    // the squatter's refresh sees the shared CNAME but not its token: no verification
    const bTry = await squatter.api.post(`/api/domains/${bId}/refresh`);
    expect(bTry.body.domain).toMatchObject({ status: 'checking', verified_at: null });

    const aOk = await owner.api.post(`/api/domains/${aId}/refresh`);
    expect(aOk.body.domain).toMatchObject({ status: 'active', error: null });
    expect(aOk.body.domain.verified_at).not.toBeNull();

    // the verified claim wins: B's claim is gone
    expect(arr((await squatter.api.get('/api/domains')).body.domains)).toEqual([]);
    expect((await squatter.api.post(`/api/domains/${bId}/refresh`)).status).toBe(404);
    expect(arr((await owner.api.get('/api/domains')).body.domains).map((d) => str(d.domain))).toEqual(['chat.victim.example']);
    const rows = await t.ctx.db.selectFrom('domains').select('workspace_id').where('domain', '=', 'chat.victim.example').execute();
    expect(rows).toHaveLength(1);
  });

  it('a token split across TXT character strings or among other records still counts; another workspace token does not', async () => {
    const one = await t.withAgent();
    const d = await one.api.post('/api/domains', { domain: 'help.split.example' });
    const token = str(d.body.domain.verification.value);
    cname.set('help.split.example', [TARGET]);
    txt.set('_agent-verify.help.split.example', [['v=spf1 -all'], ['not-the-token']]);
    expect((await one.api.post(`/api/domains/${str(d.body.domain.id)}/refresh`)).body.domain).toMatchObject({ status: 'checking', verified_at: null });
    txt.set('_agent-verify.help.split.example', [['v=spf1 -all'], [token.slice(0, 10), token.slice(10)]]);
    expect((await one.api.post(`/api/domains/${str(d.body.domain.id)}/refresh`)).body.domain).toMatchObject({ status: 'active' });
  });

  it('the same workspace cannot add a name twice', async () => {
    const one = await t.withAgent();
    expect((await one.api.post('/api/domains', { domain: 'twice.example' })).status).toBe(200);
    expect((await one.api.post('/api/domains', { domain: 'twice.example' })).body).toEqual({ error: 'domain already added' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { startSecondInstance, type SecondInstance } from '../instances.testkit';
import { testStore } from '../store.testkit';

/**
 * Two instances of the platform (two createAgentsApp, each with its own connection pool) on one PostgreSQL
 * database: the widget's lead form sent with the same details through both at once makes one contact and one lead.
 */
const onPostgres = testStore() === 'pg';
let t: AgentsTestServer;
let second: SecondInstance | null = null;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await startAgentsServer();
  second = await startSecondInstance(t);
}, 60_000);

afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe.skipIf(!onPostgres)('widget lead form, two platform instances on one PostgreSQL database', () => {
  it('the same details sent through both at once make one contact, one lead and one lead.captured', async () => {
    const b = second;
    if (!b) throw new Error('second instance missing');
    const { api, publicId } = await t.withAgent('Two');
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const N = 16;
    const sent = await Promise.all(
      Array.from({ length: N }, (_, i) => new Api(i % 2 ? b.base : t.base, null, { 'x-forwarded-for': `10.93.0.${i + 1}` }).post(`/api/public/${publicId}/lead`, { email: 'both@example.com', phone: '080-0000-1111', name: 'Kaito' })),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(N).fill(200));
    const contacts = await t.ctx.db.selectFrom('contacts').select(['email', 'phone', 'name']).where('workspace_id', '=', ws).execute();
    expect(contacts).toEqual([{ email: 'both@example.com', phone: '080-0000-1111', name: 'Kaito' }]);
    const leads = await t.ctx.db.selectFrom('leads').select('id').where('workspace_id', '=', ws).execute();
    expect(leads).toHaveLength(1);
    expect(new Set(sent.map((r) => r.body.leadId))).toEqual(new Set([leads[0].id]));
    const evs = await t.ctx.db.selectFrom('events').select('event').where('workspace_id', '=', ws).where('event', '=', 'lead.captured').execute();
    expect(evs).toHaveLength(1);
  }, 120_000);
});

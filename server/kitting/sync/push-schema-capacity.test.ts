/**
 * The capacity config record in a push: a bench pushes what its own config and load routes stored (numbers
 * sent as text, decimals, a partial update), and a value the config route would refuse or store otherwise
 * (a negative or non-numeric figure, a number as text, an unknown key, another record) answers 422
 * invalid_field with nothing of the batch stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { ok, storedRecordProblems } from '../testing/route-records.testkit';
import { pushHarness } from '../tests/attacks/helpers.testkit';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());
const h = pushHarness('push-capacity@example.jp', 'bench-capacity');

describe('capacity config records in a push', () => {
  it('records the config route stored pass the push schema', async () => {
    const api = bench.client();
    await ok(api.post('/api/capacity/config', { kittingDaily: '450', storageUsed: 12.5, staffCount: 0, other: 'x' }));
    await ok(api.post('/api/capacity/config', { perStaff: 90, palletMax: null }));
    expect((await bench.store.list(bench.ctx.benchWorkspace ?? '', 'capacity')).length).toBe(1);
    expect(await storedRecordProblems(bench, ['capacity'])).toEqual({ problems: [], empty: [] });
  });

  it('a pushed config the route would store goes through', async () => {
    const res = await h.push([{ coll: 'capacity', id: 'config', fields: { id: 'config', kittingDaily: 420, storageUsed: 12.5, staffCount: 0, updated: Date.now() } }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  const refused = (id: string, fields: Record<string, unknown>, field: string) => h.refused('capacity', id, fields, field);

  it('a value the config route would refuse or store otherwise answers 422 invalid_field, nothing stored', async () => {
    // the route answers 400 for these
    expect((await h.owner.c.post('/api/capacity/config', { kittingDaily: -1 }, h.owner.auth)).status).toBe(400);
    await refused('config', { kittingDaily: -1 }, 'kittingDaily');
    await refused('config', { storageMax: 'many' }, 'storageMax');
    // the route stores 450, not the text
    await refused('config', { kittingDaily: '450' }, 'kittingDaily');
    await refused('config', { perStaff: true }, 'perStaff');
    await refused('config', { updated: 'yesterday' }, 'updated');
    await refused('config', { owner: 'attacker' }, 'owner');
    // the collection holds the config record only
    await refused('other', { kittingDaily: 10 }, 'id');
    // nothing of the refused batches reached the stored config
    const view = await h.owner.c.get<{ config: Record<string, number> }>('/api/capacity', h.owner.auth);
    expect(view.body.config.kittingDaily).toBe(420);
  });
});

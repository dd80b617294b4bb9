/**
 * The capacity config record in a push: a bench pushes what its own config and load routes stored (numbers
 * sent as text, decimals, a partial update), and a value the config route would refuse or store otherwise
 * (a negative or non-numeric figure, a number as text, an unknown key, another record) answers 422
 * invalid_field with nothing of the batch stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldProblem } from '../../core/http/collection-schema';
import { configureLimit } from '../../core/security/limits';
import { collectionSchemas } from '../modules';
import { startTestServer, type TestResponse, type TestServer } from '../testing/harness';
import { signUp, type Body } from '../tests/attacks/helpers';

let bench: TestServer;
let server: TestServer;
let owner: Awaited<ReturnType<typeof signUp>>;
let push: (changes: { coll: string; id: string; fields: Record<string, unknown> }[]) => Promise<{ status: number; body: Body }>;
let n = 0;
const hlc = (name: string) => `${String(Date.now()).padStart(15, '0')}:${String(n++).padStart(6, '0')}:${name}`;

beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
  owner = await signUp(server, 'push-capacity@example.jp');
  const code = (await owner.c.post<{ code: string }>('/api/sync/enrol-code', {}, owner.auth)).body.code;
  const name = 'bench-capacity';
  const r = await server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench: name, name: 'capacity' });
  expect(r.status).toBe(200);
  push = (changes) =>
    server.client().post<Body>('/api/sync/v1/push', { batch: `cap-${n++}`, changes: changes.map((c, i) => ({ seq: ++n * 10 + i, hlc: hlc(name), ...c })) }, { 'x-kitting-bench-token': r.body.token });
});
afterAll(async () => {
  await bench.close();
  await server.close();
});

const schema = () => {
  const s = collectionSchemas.find((c) => c.coll === 'capacity');
  if (!s) throw new Error('no capacity schema');
  return s;
};

describe('capacity config records in a push', () => {
  it('records the config route stored pass the push schema', async () => {
    const api = bench.client();
    const ok = async <T,>(p: Promise<TestResponse<T>>): Promise<T> => {
      const r = await p;
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    await ok(api.post('/api/capacity/config', { kittingDaily: '450', storageUsed: 12.5, staffCount: 0, other: 'x' }));
    await ok(api.post('/api/capacity/config', { perStaff: 90, palletMax: null }));
    const ws = bench.ctx.benchWorkspace ?? '';
    const docs = await bench.store.list(ws, 'capacity');
    expect(docs.length).toBe(1);
    expect(docs.map((d) => fieldProblem(schema(), String(d.id), d))).toEqual([null]);
  });

  it('a pushed config the route would store goes through', async () => {
    const res = await push([{ coll: 'capacity', id: 'config', fields: { id: 'config', kittingDaily: 420, storageUsed: 12.5, staffCount: 0, updated: Date.now() } }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  const marker = (id: string) => ({ coll: 'customers', id, fields: { id, name: `目印${id}` } });
  const stored = async (id: string) => (await owner.c.get<{ customers: { id: string }[] }>('/api/customers', owner.auth)).body.customers.some((c) => c.id === id);

  async function refused(id: string, fields: Record<string, unknown>, field: string) {
    const mark = `mark-${n++}`;
    const before = await server.store.replica.lastSeq(owner.ws);
    const res = await push([marker(mark), { coll: 'capacity', id, fields }]);
    expect(res.status, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: 'invalid_field', coll: 'capacity', field });
    expect(await server.store.replica.lastSeq(owner.ws)).toBe(before);
    expect(await stored(mark)).toBe(false);
  }

  it('a value the config route would refuse or store otherwise answers 422 invalid_field, nothing stored', async () => {
    // the route answers 400 for these
    expect((await owner.c.post('/api/capacity/config', { kittingDaily: -1 }, owner.auth)).status).toBe(400);
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
    const view = await owner.c.get<{ config: Record<string, number> }>('/api/capacity', owner.auth);
    expect(view.body.config.kittingDaily).toBe(420);
  });
});

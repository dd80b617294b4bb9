import { afterAll, beforeAll, expect } from 'vitest';
import { configureLimit } from '../../security/limits';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { numberedSeries } from '../../store/series';
import { LeaseLedger } from '../../sync/lease-ledger';

/**
 * Setup for push tests that are not about numbering: central records that `bench` holds the numbers of
 * these records (as if leased to it), so a new numbered record passes the lease check and the test
 * reaches the check it is about.
 */
export async function grantNumbers(server: TestServer, ws: string, bench: string, changes: { coll: string; id: string }[]): Promise<void> {
  const ranges: { series: string; lo: number; hi: number }[] = [];
  for (const c of changes) {
    for (const s of numberedSeries.all()) {
      if (!s.keyed || s.coll !== c.coll) continue;
      const m = s.pattern.exec(c.id);
      if (!m) continue;
      const n = Number(m.groups?.n);
      ranges.push({ series: s.counter(m.groups?.p ?? ''), lo: n, hi: n });
    }
  }
  await new LeaseLedger(server.store, numberedSeries).record(ws, bench, ranges);
}

export type Body = Record<string, unknown> & { ok: boolean; error?: string; message?: string };
export const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** A new account that owns a new workspace (signed up from a fresh browser). */
export async function signUp(server: TestServer, email: string, password = 'attack-pass-1'): Promise<{ c: Client; token: string; ws: string; auth: Record<string, string> }> {
  const c = server.client();
  const r = await c.post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email, password });
  if (r.status !== 200) throw new Error(`signup ${email}: ${r.status} ${r.text}`);
  return { c, token: r.body.token, ws: r.body.adoptedTenant, auth: bearer(r.body.token) };
}

/** Invite and accept: a member of the owner's workspace with this role, signed in from its own browser. */
export async function addMember(server: TestServer, owner: Record<string, string>, email: string, role: string) {
  const inv = await server.client().post<{ token: string; member: { id: string } }>('/api/team/invite', { email, role }, owner);
  if (inv.status !== 200) throw new Error(`invite ${email}: ${inv.status} ${inv.text}`);
  const c = server.client();
  const ok = await c.post<{ token: string }>('/api/team/accept', { inviteToken: inv.body.token, email, password: 'attack-pass-1' });
  if (ok.status !== 200) throw new Error(`accept ${email}: ${ok.status} ${ok.text}`);
  return { c, token: ok.body.token, auth: bearer(ok.body.token), memberId: inv.body.member.id };
}

export type Change = { coll: string; id: string; fields: Record<string, unknown> };

/** Pushes of an enrolled bench: each call is one batch, with increasing sequence numbers and clocks. */
export function benchPusher(server: TestServer, token: string, bench: string) {
  let n = 0;
  const hlc = () => `${String(Date.now()).padStart(15, '0')}:${String(n++).padStart(6, '0')}:${bench}`;
  return (changes: Change[]) =>
    server.client().post<Body>('/api/sync/v1/push', { batch: `${bench}-${n++}`, changes: changes.map((c, i) => ({ seq: ++n * 10 + i, hlc: hlc(), ...c })) }, { 'x-kitting-bench-token': token });
}

/**
 * A test server with an owner's workspace and an enrolled bench, and the two questions every push attack
 * asks: `refused` (a valid marker change sent first is not stored either, the change log does not move,
 * the answer is 422 invalid_field naming the field) and `accepted`. Registers its own beforeAll/afterAll.
 */
export function pushHarness(email: string, bench: string) {
  let n = 0;
  let send: (changes: Change[]) => ReturnType<ReturnType<typeof benchPusher>> = () => {
    throw new Error('the bench is enrolled in beforeAll');
  };
  const h = {
    server: undefined as unknown as TestServer,
    owner: undefined as unknown as Awaited<ReturnType<typeof signUp>>,
    /** A push exactly as given: no numbers granted first (the attacks on leases). */
    pushAsIs: (changes: Change[]) => send(changes),
    push: async (changes: Change[]) => {
      await grantNumbers(h.server, h.owner.ws, bench, changes);
      return send(changes);
    },
    /** Whether the customer `id` (the marker) reads back through the routes. */
    stored: async (id: string) => (await h.owner.c.get<{ customers: { id: string }[] }>('/api/customers', h.owner.auth)).body.customers.some((c) => c.id === id),
    async refused(coll: string, id: string, fields: Record<string, unknown>, field: string) {
      const mark = `mark-${n++}`;
      const before = await h.server.store.replica.lastSeq(h.owner.ws);
      const res = await h.push([{ coll: 'customers', id: mark, fields: { id: mark, name: `目印${mark}` } }, { coll, id, fields }]);
      expect(res.status, `${coll} ${JSON.stringify(fields).slice(0, 120)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toMatchObject({ ok: false, error: 'invalid_field', coll, field });
      expect(await h.server.store.replica.lastSeq(h.owner.ws)).toBe(before);
      expect(await h.stored(mark)).toBe(false);
    },
    async accepted(coll: string, id: string, fields: Record<string, unknown>) {
      const res = await h.push([{ coll, id, fields }]);
      expect(res.status, `${coll}: ${JSON.stringify(res.body)}`).toBe(200);
    },
  };
  beforeAll(async () => {
    h.server = await startTestServer();
    configureLimit(h.server.ctx, 'signup', 1000);
    h.owner = await signUp(h.server, email);
    const code = (await h.owner.c.post<{ code: string }>('/api/sync/enrol-code', {}, h.owner.auth)).body.code;
    const r = await h.server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench, name: bench });
    expect(r.status, r.text).toBe(200);
    send = benchPusher(h.server, r.body.token, bench);
  });
  afterAll(() => h.server.close());
  return h;
}

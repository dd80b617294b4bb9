import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc } from '../../../shared/hlc';
import { startTestServer, type Client, type TestResponse, type TestServer } from '../testing/harness.testkit';
import { SCHEMA_HEADER, SYNC_V1, TOKEN_HEADER } from './protocol';

type Body = Record<string, unknown> & { ok: boolean; error?: string };

let central: TestServer;
let owner: Client;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  owner = central.client();
  await owner.get('/api/devices'); // the browser gets its workspace (kit_tid)
});
afterAll(() => central.close());

async function code(c: Client = owner): Promise<string> {
  const res = await c.post<Body & { code: string; expiresAt: string }>('/api/sync/enrol-code');
  expect(res.status).toBe(200);
  return res.body.code;
}

/** A raw bench: enrols with a code and talks the protocol directly. */
type Call = (m: string, p: string, b?: unknown, h?: Record<string, string>) => Promise<TestResponse<Body>>;

async function rawBench(bench: string): Promise<{ token: string; workspace: string; call: Call; blocks: { series: string; lo: number; hi: number; overflow?: boolean }[] }> {
  const c = central.client();
  const res = await c.post<Body & { token: string; workspace: string; blocks: { series: string; lo: number; hi: number; overflow?: boolean }[] }>(`${SYNC_V1}/enrol`, { code: await code(), bench });
  expect(res.status).toBe(200);
  const token = res.body.token;
  return {
    token,
    workspace: res.body.workspace,
    blocks: res.body.blocks,
    call: (m, p, b, h = {}) => c.request<Body>(m, p, b, { [TOKEN_HEADER]: token, [SCHEMA_HEADER]: '2', ...h }),
  };
}

const stamp = (ms: number, node: string, counter = 0) => formatHlc({ ms, counter, node });

describe('POST /api/sync/enrol-code', () => {
  it('answers a one-time code with its expiry for the kit_tid holder', async () => {
    const res = await owner.post<Body & { code: string; expiresAt: string }>('/api/sync/enrol-code');
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now() + 3_600_000);
  });

  it('a code enrols only once', async () => {
    const c = await code();
    const first = await central.client().post<Body>(`${SYNC_V1}/enrol`, { code: c, bench: 'bench-once' });
    expect(first.status).toBe(200);
    const again = await central.client().post<Body>(`${SYNC_V1}/enrol`, { code: c, bench: 'bench-twice' });
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('enrol_code_invalid');
  });

  it('binds the bench to the workspace of the browser that made the code', async () => {
    const b = await rawBench('bench-ws');
    const other = central.client();
    await other.get('/api/devices');
    const otherCode = (await other.post<Body & { code: string }>('/api/sync/enrol-code')).body.code;
    const res = await central.client().post<Body & { workspace: string }>(`${SYNC_V1}/enrol`, { code: otherCode, bench: 'bench-other' });
    expect(res.body.workspace).not.toBe(b.workspace);
    const list = await owner.get<Body & { benches: { bench: string }[] }>('/api/sync/benches');
    expect(list.body.benches.map((x) => x.bench)).toContain('bench-ws');
    expect(list.body.benches.map((x) => x.bench)).not.toContain('bench-other');
  });
});

describe('POST /api/sync/v1/push', () => {
  it('applies a batch once: a repeated batch or change changes nothing and gets the same answer', async () => {
    const b = await rawBench('benchpush');
    const now = Date.now();
    const changes = [{ seq: 1, coll: 'devices', id: '990000000000001', hlc: stamp(now, 'benchpush'), fields: { imei: '990000000000001', model: 'X' } }];
    const first = await b.call('POST', `${SYNC_V1}/push`, { batch: 'b1', changes });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, acked: 1, applied: 1, duplicate: false });
    expect(typeof first.body.serverTime).toBe('number');
    const again = await b.call('POST', `${SYNC_V1}/push`, { batch: 'b1', changes });
    expect(again.body).toMatchObject({ ok: true, acked: 1, applied: 1, duplicate: true });
    const newBatchOldChange = await b.call('POST', `${SYNC_V1}/push`, { batch: 'b2', changes });
    expect(newBatchOldChange.body).toMatchObject({ ok: true, acked: 1, applied: 0 });
    const pulled = await b.call('GET', `${SYNC_V1}/changes?after=0&limit=5000`);
    const mine = (pulled.body.changes as { id: string }[]).filter((c) => c.id === '990000000000001');
    expect(mine).toHaveLength(0); // never echoed to its author
    const dev = await owner.get<Body & { device?: { model: string } }>('/api/devices');
    expect((dev.body.devices as { imei: string; model: string }[]).find((d) => d.imei === '990000000000001')?.model).toBe('X');
  });

  it('refuses stamps more than 2 minutes in the future and stores nothing', async () => {
    const b = await rawBench('benchfuture');
    const changes = [{ seq: 1, coll: 'devices', id: '990000000000002', hlc: stamp(Date.now() + 5 * 60_000, 'benchfuture'), fields: { model: 'F' } }];
    const res = await b.call('POST', `${SYNC_V1}/push`, { batch: 'f1', changes });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('hlc_in_future');
    expect(typeof res.body.serverTime).toBe('number');
    const ok = await b.call('POST', `${SYNC_V1}/push`, { batch: 'f2', changes: [{ ...changes[0], hlc: stamp(Date.now() + 60_000, 'benchfuture') }] });
    expect(ok.status).toBe(200);
  });

  it('refuses a bench whose schema is newer with 426', async () => {
    const b = await rawBench('benchnew');
    const res = await b.call('GET', `${SYNC_V1}/changes?after=0`, undefined, { [SCHEMA_HEADER]: '999' });
    expect(res.status).toBe(426);
    expect(res.body.error).toBe('upgrade_required');
  });

  it('refuses an unknown token and, at once, a revoked bench', async () => {
    const b = await rawBench('benchrevoke');
    expect((await b.call('GET', `${SYNC_V1}/changes?after=0&limit=1`)).status).toBe(200);
    const bad = await central.client().request('GET', `${SYNC_V1}/changes`, undefined, { [TOKEN_HEADER]: 'kbt_nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('bench_token_invalid');
    const rev = await owner.post<Body>('/api/sync/benches/benchrevoke/revoke');
    expect(rev.status).toBe(200);
    const after = await b.call('GET', `${SYNC_V1}/changes?after=0&limit=1`);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('bench_revoked');
    expect((await owner.post<Body>('/api/sync/benches/nobody/revoke')).status).toBe(404);
  });
});

describe('GET /api/sync/v1/changes', () => {
  it('pages by server_seq cursor without gaps or repeats', async () => {
    const writer = await rawBench('benchwriter');
    const reader = await rawBench('benchreader');
    const base = Date.now();
    const changes = Array.from({ length: 25 }, (_, i) => ({
      seq: i + 1,
      coll: 'jobs',
      id: `J-PAGE-${i}`,
      hlc: stamp(base, 'benchwriter', i),
      fields: { id: `J-PAGE-${i}`, t: String(i) },
    }));
    expect((await writer.call('POST', `${SYNC_V1}/push`, { batch: 'p1', changes })).status).toBe(200);
    const seen: string[] = [];
    let after = 0;
    for (let guard = 0; guard < 100; guard += 1) {
      const page = await reader.call('GET', `${SYNC_V1}/changes?after=${after}&limit=7`);
      expect(page.status).toBe(200);
      const got = page.body.changes as { seq: number; id: string }[];
      expect(got.length).toBeLessThanOrEqual(7);
      for (const c of got) expect(c.seq).toBeGreaterThan(after);
      seen.push(...got.map((c) => c.id));
      after = page.body.next as number;
      if (!page.body.more) break;
    }
    const ours = seen.filter((id) => id.startsWith('J-PAGE-'));
    expect(ours).toEqual(changes.map((c) => c.id));
    const tail = await reader.call('GET', `${SYNC_V1}/changes?after=${after}`);
    expect(tail.body.changes).toEqual([]);
  });

  it('tells a bench behind the compaction horizon to load a snapshot, and follows one at the horizon', async () => {
    const writer = await rawBench('benchcompact');
    const base = Date.now() - 3_600_000;
    const changes = Array.from({ length: 6 }, (_, i) => ({ seq: i + 1, coll: 'jobs', id: 'J-COMPACT', hlc: stamp(base, 'benchcompact', i), fields: { id: 'J-COMPACT', t: `v${i}` } }));
    expect((await writer.call('POST', `${SYNC_V1}/push`, { batch: 'c1', changes })).status).toBe(200);
    const before = (await central.store.replica.lastSeq(writer.workspace)) - 1;
    const central_ = central.ctx.sync?.central;
    if (!central_) throw new Error('central mode expected');
    // No bench counts as active: the log is compacted up to the end of the (zero) retention window.
    const reports = await central_.compact({ retentionMs: 0, activeMs: -1e15, now: Date.now() + 60_000 });
    const through = reports.find((r) => r.ws === writer.workspace)?.through ?? 0;
    expect(through).toBeGreaterThan(before);
    const behind = await writer.call('GET', `${SYNC_V1}/changes?after=${before}`);
    expect(behind.status).toBe(200);
    expect(behind.body).toMatchObject({ resync: true, changes: [], next: before, more: false });
    const at = await writer.call('GET', `${SYNC_V1}/changes?after=${through}`);
    expect(at.body.resync).toBeUndefined();
    expect(at.body.changes).toEqual([]);
    // The snapshot still holds the record with its latest value.
    const snap = await writer.call('GET', `${SYNC_V1}/snapshot?after=&limit=10000`);
    const rec = (snap.body.records as { coll: string; id: string; data: { t: string } }[]).find((r) => r.coll === 'jobs' && r.id === 'J-COMPACT');
    expect(rec?.data.t).toBe('v5');
  });
});

describe('POST /api/sync/v1/lease', () => {
  it('leases disjoint blocks above the workspace series level', async () => {
    const a = await rawBench('benchlease1');
    const b = await rawBench('benchlease2');
    const req = { requests: [{ series: 'shipment', size: 100, start: 1001, atLeast: 0 }] };
    const la = await a.call('POST', `${SYNC_V1}/lease`, req);
    const lb = await b.call('POST', `${SYNC_V1}/lease`, req);
    const ba = (la.body.blocks as { lo: number; hi: number }[])[0];
    const bb = (lb.body.blocks as { lo: number; hi: number }[])[0];
    expect(ba.hi - ba.lo).toBe(99);
    expect(bb.lo).toBeGreaterThan(ba.hi);
    expect(la.body.series).toContain('shipment');
    const created = await owner.post<Body & { shipment: { id: string } }>('/api/shipment', { customer: 'x' });
    expect(Number(created.body.shipment.id.slice(4))).toBeGreaterThan(bb.hi);
  });
});

describe('who may create enrolment codes', () => {
  it('once the workspace has accounts: an owner session, not the bare kit_tid', async () => {
    const browser = central.client();
    await browser.get('/api/devices');
    const anonymousCookie = browser.cookie('kit_tid') as string;
    const email = `owner-${Date.now()}@example.jp`;
    const signup = await browser.post<Body & { token: string }>('/api/account/signup', { email, password: 'correct-horse-9', company: '山田通信', name: '山田 太郎' });
    expect(signup.status).toBe(200);
    // the anonymous cookie the browser had before signing up no longer opens the workspace
    const stale = central.client();
    stale.setCookie('kit_tid', anonymousCookie);
    const bare = await stale.post<Body>('/api/sync/enrol-code');
    expect(bare.status).toBe(401);
    const withSession = await browser.post<Body & { code: string }>('/api/sync/enrol-code', {}, { authorization: `Bearer ${signup.body.token}` });
    expect(withSession.status).toBe(200);
    expect(withSession.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  });
});

describe('POST /api/sync/v1/push field values', () => {
  it('refuses a change whose values the routes would refuse, naming it, and stores nothing of the batch', async () => {
    const b = await rawBench('benchschema');
    const hlc = (i: number) => stamp(Date.now(), 'benchschema', i);
    const good = { seq: 1, coll: 'jobs', id: 'J-SCHEMA-1', hlc: hlc(1), fields: { id: 'J-SCHEMA-1', c: '正しい案件', s: 2 } };
    const before = await central.store.replica.lastSeq(b.workspace);
    for (const fields of [{ c: 'x'.repeat(121) }, { s: 'stage two' }, { s: 9 }, { owner: 'me' }, { c: ['a'] }]) {
      const bad = { seq: 2, coll: 'jobs', id: 'J-SCHEMA-2', hlc: hlc(2), fields: { id: 'J-SCHEMA-2', ...fields } };
      const res = await b.call('POST', `${SYNC_V1}/push`, { batch: `schema-${Object.keys(fields)[0]}`, changes: [good, bad] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ ok: false, error: 'invalid_field', coll: 'jobs', id: 'J-SCHEMA-2', field: Object.keys(fields)[0] });
      expect(await central.store.replica.lastSeq(b.workspace)).toBe(before);
    }
    expect(await central.store.get(b.workspace, 'jobs', 'J-SCHEMA-1')).toBeNull();
    // the bench fixes its change: the batch is accepted and reads back as the routes would show it
    const fixed = { seq: 2, coll: 'jobs', id: 'J-SCHEMA-2', hlc: hlc(3), fields: { id: 'J-SCHEMA-2', c: 'x'.repeat(120), s: 4, ch: 'c-green' } };
    expect((await b.call('POST', `${SYNC_V1}/push`, { batch: 'schema-fixed', changes: [good, fixed] })).status).toBe(200);
    const jobs = (await owner.get<{ jobs: { id: string; s: number }[] }>('/api/jobs')).body.jobs;
    expect(jobs.find((j) => j.id === 'J-SCHEMA-2')?.s).toBe(4);
    expect(jobs.find((j) => j.id === 'J-SCHEMA-1')?.s).toBe(2);
  });

  it('accepts the records a bench made through its own routes, removed fields and tombstones included', async () => {
    const b = await rawBench('benchroutes');
    const hlc = (i: number) => stamp(Date.now(), 'benchroutes', i);
    // A ticket the bench numbered from its own leased block.
    const tk = `TK-0${b.blocks.find((x) => x.series === 'ticket' && !x.overflow)?.lo}`;
    const changes = [
      { seq: 1, coll: 'devices', id: '359111111111111', hlc: hlc(1), fields: { imei: '359111111111111', serial: 'IP16-000001', asset: 'A-000001', model: 'iPhone 16', maker: 'Apple', os: 'iOS', cust: '社内検証機', mdm: 'Intune', status: '入荷待ち', bat: 100, loc: '', user: '', note: '', chip: 'c-gray', created: 1, updated: 2 } },
      { seq: 2, coll: 'customers', id: 'cust-bench-1', hlc: hlc(2), fields: { id: 'cust-bench-1', name: '顧客', monthly: '—', renew: null, created: 1 } },
      { seq: 3, coll: 'team', id: 'tm-bench-1', hlc: hlc(3), fields: { id: 'tm-bench-1', name: '新人', ini: 'SJ', role: 'member', dept: '—', email: 'new@example.jp', scopes: { ops: 'edit' }, status: null, invitedAt: null, account: 'new@example.jp', joinedAt: 5 } },
      { seq: 4, coll: 'tickets', id: tk, hlc: hlc(4), fields: { id: tk, cust: '—', subject: '件名', created: 1 } },
      { seq: 5, coll: 'tickets', id: tk, hlc: hlc(5), fields: { _deleted: true } },
    ];
    const res = await b.call('POST', `${SYNC_V1}/push`, { batch: 'routes-1', changes });
    expect(res.status).toBe(200);
    expect((await central.store.get(b.workspace, 'devices', '359111111111111'))?.chip).toBe('c-gray');
    expect(await central.store.get(b.workspace, 'tickets', tk)).toBeNull();
  });
});


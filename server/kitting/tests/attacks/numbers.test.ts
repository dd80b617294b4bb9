/**
 * Attacks on numbering (issue 26): a bench that names numbers central never issued, and creates that
 * would overwrite an existing record. Each is refused with nothing changed; numbers stay unique.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYear } from '../../../../shared/dates';
import { configureLimit } from '../../security/limits';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { signUp, type Body } from './helpers.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

let n = 0;
const BIG = 9007199254740990;
const tokenHeader = (t: string) => ({ 'x-kitting-bench-token': t });

async function owner() {
  return signUp(server, `numbers-${n++}@example.jp`);
}
async function code(o: Awaited<ReturnType<typeof owner>>) {
  return (await o.c.post<{ code: string }>('/api/sync/enrol-code', {}, o.auth)).body.code;
}
async function enrol(o: Awaited<ReturnType<typeof owner>>) {
  const r = await server.client().post<{ token: string }>('/api/sync/v1/enrol', { code: await code(o), bench: `nb${n++}`, name: 'attack' });
  expect(r.status, r.text).toBe(200);
  return r.body.token;
}
async function ticketIds(o: Awaited<ReturnType<typeof owner>>, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await o.c.post<{ ticket: { id: string } }>('/api/ticket', { subject: `問い合わせ${i}` }, o.auth);
    expect(r.status, r.text).toBe(200);
    ids.push(r.body.ticket.id);
  }
  return ids;
}

describe('a bench cannot push central numbering past what central issued', () => {
  it('a lease with atLeast near 2^53 is refused and central keeps issuing distinct tickets', async () => {
    const o = await owner();
    const token = await enrol(o);
    const before = await server.store.replica.localSeries(o.ws);
    const res = await server.client().post<Body>('/api/sync/v1/lease', { requests: [{ series: 'ticket', size: 10000, start: null, atLeast: BIG }] }, tokenHeader(token));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('series_out_of_range');
    expect(await server.store.replica.localSeries(o.ws)).toEqual(before);
    const ids = await ticketIds(o, 4);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^TK-0\d{3,5}$/);
    const list = (await o.c.get<{ tickets: { id: string }[] }>('/api/tickets', o.auth)).body.tickets.map((t) => t.id);
    for (const id of ids) expect(list).toContain(id);
  });

  it('a lease far ahead of the series (beyond one reserve block) is refused; an oversized reserve too', async () => {
    const o = await owner();
    const token = await enrol(o);
    const level = (await server.store.replica.localSeries(o.ws)).ticket ?? 0;
    const far = await server.client().post<Body>('/api/sync/v1/lease', { requests: [{ series: 'ticket', size: 10, start: null, atLeast: level + 100_000 }] }, tokenHeader(token));
    expect(far.status).toBe(422);
    const reserve = await server.client().post<Body>('/api/sync/v1/lease', { requests: [{ series: 'ticket', size: 10000, start: null, atLeast: 0, overflow: true }] }, tokenHeader(token));
    expect(reserve.status).toBe(422);
    expect((await server.store.replica.localSeries(o.ws)).ticket).toBe(level);
    // within the bounds a lease is answered as before
    const fine = await server.client().post<{ blocks: { lo: number; hi: number }[] }>('/api/sync/v1/lease', { requests: [{ series: 'ticket', size: 10, start: null, atLeast: level }] }, tokenHeader(token));
    expect(fine.status).toBe(200);
    expect(fine.body.blocks[0]).toMatchObject({ lo: level + 1, hi: level + 10 });
  });

  it('a lease of a series no module declares leases nothing and creates no series', async () => {
    const o = await owner();
    const token = await enrol(o);
    const res = await server.client().post<{ blocks: unknown[]; series: string[] }>('/api/sync/v1/lease', { requests: [{ series: 'made-up', size: 10, start: 1, atLeast: 0 }] }, tokenHeader(token));
    expect(res.status).toBe(200);
    expect(res.body.blocks).toEqual([]);
    expect(res.body.series).not.toContain('made-up');
  });

  it('an enrolment naming a certificate level near 2^53 is refused, the code stays unused, and certificates stay distinct', async () => {
    const o = await owner();
    const c = await code(o);
    const series = { [`erz:${jstYear(Date.now())}`]: BIG };
    const res = await server.client().post<Body>('/api/sync/v1/enrol', { code: c, bench: 'nb-cert', name: 'attack', series });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('series_out_of_range');
    expect((await server.client().post('/api/sync/v1/enrol', { code: c, bench: 'nb-cert', name: 'ok' })).status).toBe(200);
    const nos: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await o.c.post<{ cert: { no: string } }>('/api/cert', { cust: '株式会社テスト', count: 1 }, o.auth);
      expect(r.status, r.text).toBe(200);
      nos.push(r.body.cert.no);
    }
    expect(new Set(nos).size).toBe(3);
    for (const no of nos) expect(no).toMatch(/^KIT-ERZ-\d{4}-\d{4}$/);
  });
});

describe('no create ever overwrites an existing record', () => {
  it('a ticket stored at the number central would issue next is kept; the create takes the next number', async () => {
    const o = await owner();
    const level = (await server.store.replica.localSeries(o.ws)).ticket ?? 672;
    const taken = `TK-0${level + 1}`;
    await server.store.transact(o.ws, async (tx) => {
      await tx.put('tickets', taken, { id: taken, subject: '先に登録された問い合わせ' });
    });
    const [id] = await ticketIds(o, 1);
    expect(id).toBe(`TK-0${level + 2}`);
    expect((await server.store.get(o.ws, 'tickets', taken))?.subject).toBe('先に登録された問い合わせ');
  });

  it('the store refuses a create that meets an existing key, live or deleted, and writes nothing', async () => {
    const o = await owner();
    await server.store.transact(o.ws, (tx) => tx.create('customers', 'cust-first', { id: 'cust-first', name: '先の顧客' }));
    const seq = await server.store.replica.lastSeq(o.ws);
    await expect(server.store.transact(o.ws, (tx) => tx.create('customers', 'cust-first', { id: 'cust-first', name: '上書き' }))).rejects.toMatchObject({ error: 'record_exists' });
    expect((await server.store.get(o.ws, 'customers', 'cust-first'))?.name).toBe('先の顧客');
    await server.store.transact(o.ws, (tx) => tx.remove('customers', 'cust-first'));
    await expect(server.store.transact(o.ws, (tx) => tx.create('customers', 'cust-first', { id: 'cust-first', name: '復活' }))).rejects.toMatchObject({ error: 'record_exists' });
    expect(await server.store.replica.lastSeq(o.ws)).toBe(seq + 1);
  });

  it('the counter refuses to pass Number.MAX_SAFE_INTEGER instead of issuing a number twice', async () => {
    const o = await owner();
    await server.store.transact(o.ws, (tx) => tx.bumpSeries('ticket', Number.MAX_SAFE_INTEGER - 1));
    const a = await server.store.transact(o.ws, (tx) => tx.next('ticket'));
    expect(a).toBe(Number.MAX_SAFE_INTEGER);
    await expect(server.store.transact(o.ws, (tx) => tx.next('ticket'))).rejects.toMatchObject({ error: 'series_exhausted' });
    const r = await o.c.post<Body>('/api/ticket', { subject: '上限' }, o.auth);
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('series_exhausted');
  });
});

/**
 * Inbound lists on benches: created on a bench before it is enrolled (numbered without central, renumbered
 * at enrolment when central issued the same number), then scanned on two benches that do not sync while
 * they scan; after syncing, every replica agrees: each IMEI received once, the same counts everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYear } from '../../../../shared/dates';
import type { Inbound, InboundLine } from '../../../../shared/api/contracts/inbound';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { lineDocs } from './inbound.service';
import { b64, csvFile, noticeRows, testImei } from './inbound.testkit';

let central: TestServer;
let benchA: TestServer;
let benchB: TestServer;
let owner: Client;
let a: Client;
let b: Client;
const yy = String(jstYear() % 100).padStart(2, '0');

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  benchA = await startTestServer({ mode: 'bench' });
  benchB = await startTestServer({ mode: 'bench' });
  owner = central.client();
  a = benchA.client();
  b = benchB.client();
  await owner.get('/api/devices');
  await a.get('/api/devices');
  await b.get('/api/devices');
});
afterAll(async () => {
  await benchA.close();
  await benchB.close();
  await central.close();
});

type Detail = { inbound: Inbound; lines: InboundLine[] };

async function enrol(ui: Client): Promise<void> {
  const { code } = (await owner.post<{ code: string }>('/api/sync/enrol-code')).body;
  const r = await ui.post<{ lastError: unknown }>('/api/sync/enrol', { central: central.url, code });
  expect(r.status, r.text).toBe(200);
}

async function sync(ui: Client): Promise<void> {
  const r = await ui.post<{ pending: number }>('/api/sync/now');
  expect(r.status, r.text).toBe(200);
  expect(r.body.pending).toBe(0);
}

const notice = (start: number) => b64(csvFile(noticeRows(6, start), { encoding: 'shift_jis' }));

describe('inbound lists across benches and central', () => {
  it('a list made on a bench before enrolment reaches central and the other bench; scans on both converge', async () => {
    const offline = await a.post<{ inbound: Inbound }>('/api/inbound', { name: '作業台で作成', cust: 'ABC物流株式会社', file: notice(5000) });
    expect(offline.status, offline.text).toBe(200);
    expect(offline.body.inbound.no).toBe(`IB-${yy}-0001`);
    const onCentral = await owner.post<{ inbound: Inbound }>('/api/inbound', { name: '本部で作成', cust: 'DEF商事', file: notice(6000) });
    expect(onCentral.body.inbound.no).toBe(`IB-${yy}-0001`);

    await enrol(a);
    await sync(a);
    await enrol(b);
    await sync(b);
    const id = offline.body.inbound.id;
    const lists = (await owner.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds;
    const mine = lists.find((l) => l.id === id);
    // The bench's number collided with central's: renumbered at enrolment, never refused.
    expect(mine?.no).toMatch(new RegExp(`^IB-${yy}-\\d{4}$`));
    expect(mine?.no).not.toBe(`IB-${yy}-0001`);
    expect(lists.find((l) => l.id === onCentral.body.inbound.id)?.no).toBe(`IB-${yy}-0001`);
    expect((await b.get<Detail>(`/api/inbound/${id}`)).body.inbound).toMatchObject({ no: mine?.no, counts: { expected: 6, received: 0 } });

    // Both benches scan without syncing in between (the same devices on both, and one stranger).
    const stranger = testImei(5999);
    const scanA = [testImei(5000), testImei(5001), testImei(5002), stranger];
    const scanB = [testImei(5001), testImei(5002), testImei(5003), stranger];
    for (const imei of scanA) expect((await a.post(`/api/inbound/${id}/scan`, { imei })).status).toBe(200);
    for (const imei of scanB) expect((await b.post(`/api/inbound/${id}/scan`, { imei })).status).toBe(200);
    expect((await a.get<Detail>(`/api/inbound/${id}`)).body.inbound.counts).toEqual({ expected: 6, received: 3, unexpected: 1, missing: 3 });

    await sync(a);
    await sync(b);
    await sync(a);

    const want = { expected: 6, received: 4, unexpected: 1, missing: 2 };
    const replicas: [string, Client][] = [['central', owner], ['bench A', a], ['bench B', b]];
    const views: Detail[] = [];
    for (const [name, client] of replicas) {
      const d = (await client.get<Detail>(`/api/inbound/${id}`)).body;
      expect(d.inbound.counts, name).toEqual(want);
      views.push(d);
      const received = d.lines.filter((l) => l.state === 'received').map((l) => l.imei);
      expect(received.sort(), name).toEqual([5000, 5001, 5002, 5003].map((i) => testImei(i)).sort());
      expect(new Set(d.lines.map((l) => l.imei)).size, name).toBe(d.lines.length);
      expect(d.lines.filter((l) => l.state === 'unexpected').map((l) => l.imei), name).toEqual([stranger]);
    }
    const strip = (d: Detail) => d.lines.map((l) => [l.imei, l.state, l.device, l.scannedAt]).sort();
    expect(strip(views[1] as Detail)).toEqual(strip(views[0] as Detail));
    expect(strip(views[2] as Detail)).toEqual(strip(views[0] as Detail));

    // One ledger row per received IMEI on every replica.
    const ws = owner.workspaceId() as string;
    for (const [name, t] of [['central', central], ['bench A', benchA], ['bench B', benchB]] as const) {
      const lines = await lineDocs(t.store, ws, id);
      expect(lines.length, name).toBe(7);
      for (const i of [5000, 5001, 5002, 5003]) expect(await t.store.get(ws, 'devices', testImei(i)), `${name} ${i}`).not.toBeNull();
    }

    // Closing on one bench closes it everywhere after sync.
    expect((await b.post(`/api/inbound/${id}/close`, {})).status).toBe(200);
    await sync(b);
    await sync(a);
    expect((await a.get<Detail>(`/api/inbound/${id}`)).body.inbound.status).toBe('closed');
    expect((await a.post(`/api/inbound/${id}/scan`, { imei: testImei(5004) })).body.error).toBe('inbound closed');
  });
});

describe('the push check of inbound records', () => {
  it('accepts what the routes stored on a bench', async () => {
    const { storedRecordProblems } = await import('../../testing/route-records.testkit');
    expect(await storedRecordProblems(benchA, ['inbound', 'inboundLines'])).toEqual({ problems: [], empty: [] });
  });

  it('refuses a line under another key, a bad IMEI, an unknown state or field, and a list number outside the format', async () => {
    const { fieldProblem } = await import('../../http/collection-schema');
    const { inboundLineSchema, inboundSchema } = await import('./inbound.service');
    const imei = testImei(1);
    expect(fieldProblem(inboundLineSchema, `ib-x:${imei}`, { id: `ib-x:${imei}`, list: 'ib-x', imei, state: 'received' })).toBeNull();
    expect(fieldProblem(inboundLineSchema, `ib-x:${imei}`, { list: 'ib-y' })?.field).toBe('id');
    expect(fieldProblem(inboundLineSchema, `ib-x:${imei}`, { imei: testImei(2) })?.field).toBe('id');
    expect(fieldProblem(inboundLineSchema, 'ib-x:12345', { imei: '12345' })).not.toBeNull();
    expect(fieldProblem(inboundLineSchema, `ib-x:${imei}`, { state: 'lost' })?.field).toBe('state');
    expect(fieldProblem(inboundLineSchema, `ib-x:${imei}`, { price: 1 })?.field).toBe('price');
    expect(fieldProblem(inboundSchema, 'ib-x', { no: 'IB-2026-1' })?.field).toBe('no');
    expect(fieldProblem(inboundSchema, 'ib-x', { status: 'done' })?.field).toBe('status');
    expect(fieldProblem(inboundSchema, 'ib-x', { name: '' })?.field).toBe('name');
  });
});

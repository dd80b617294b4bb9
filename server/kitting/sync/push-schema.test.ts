/**
 * A bench pushes what its own routes stored: every record the routes of a collection with a declared
 * schema write (seeded demo data, creates, updates, derived fields, job moves, portal tickets) must pass
 * the check central applies to pushed fields, or a legitimate bench could never sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldProblem } from '../../core/http/collection-schema';
import { collectionSchemas } from '../modules';
import { startTestServer, type TestResponse, type TestServer } from '../testing/harness';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

describe('records written by the routes pass the push schema', () => {
  it('covers seeded records and records the routes create and update', async () => {
    const api = bench.client();
    const ok = async <T,>(p: Promise<TestResponse<T>>): Promise<T> => {
      const r = await p;
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    const { imei } = (await ok(api.post<{ device: { imei: string } }>('/api/device', { model: 'Galaxy S24', bat: '87', note: 'n'.repeat(400) }))).device;
    await ok(api.post(`/api/device/${imei}`, { status: '出荷済', loc: 12 }));
    await ok(api.post('/api/devices/bulk', { qty: 2, model: 'iPad Air' }));
    const { job } = await ok(api.post<{ job: { id: string } }>('/api/job', { c: 'c'.repeat(200), s: '7' }));
    await ok(api.post(`/api/job/${job.id}/devices`, { add: [imei] }));
    await ok(api.post(`/api/job/${job.id}`, { s: 2 }));
    await ok(api.post('/api/shipment', { kind: 'sideways', customer: 'A社', late: 'true' }));
    await ok(api.post('/api/customer', { name: 'B社', renew: { date: '2027-04-01', kind: '更新' } }));
    await ok(api.post('/api/inquiry', { title: '故障', summary: 's'.repeat(3000) }));
    const { ticket } = await ok(api.post<{ ticket: { id: string } }>('/api/ticket', { customer: 'C社', subject: '件名' }));
    await ok(api.post(`/api/ticket/${ticket.id}/message`, { from: '担当', text: '本文' }));
    await ok(api.post('/api/staff', { name: '派遣 太郎', type: 'agency' }));
    await ok(api.post('/api/dock/reservation', { date: '2026-11-30', start: '10:00', dur: 9999, cust: 'D社' }));
    await ok(api.post('/api/capacity/load', { date: '2026-11-30', qty: '12.7', cust: 'E社' }));
    await ok(api.post('/api/invoice', { cust: 'F社', amount: '12,000', month: 2611, desc: '保守' }));
    await ok(api.post('/api/quote', { cust: 'G社', ini: [{ n: '作業', q: '3.7', p: 1000.4 }], costRate: '40' }));

    const ws = bench.ctx.benchWorkspace ?? '';
    const problems: string[] = [];
    let checked = 0;
    for (const schema of collectionSchemas) {
      for (const doc of await bench.store.list(ws, schema.coll)) {
        checked += 1;
        const p = fieldProblem(schema, String(doc[schema.idField]), doc);
        if (p) problems.push(`${schema.coll} ${String(doc[schema.idField])}: ${p.field} ${p.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('refuses what the routes would clip, replace or never store', () => {
    const jobs = collectionSchemas.find((s) => s.coll === 'jobs');
    expect(jobs).toBeDefined();
    if (!jobs) return;
    expect(fieldProblem(jobs, 'j1', { id: 'j1', c: 'x'.repeat(120), s: 3, devices: ['1'] })).toBeNull();
    expect(fieldProblem(jobs, 'j1', { c: 'x'.repeat(121) })?.field).toBe('c');
    expect(fieldProblem(jobs, 'j1', { s: 12 })?.field).toBe('s');
    expect(fieldProblem(jobs, 'j1', { c: 5 })?.field).toBe('c');
    expect(fieldProblem(jobs, 'j1', { role: 'owner' })?.field).toBe('role');
    expect(fieldProblem(jobs, 'j1', { id: 'j2' })?.field).toBe('id');
    expect(fieldProblem(jobs, 'j1', { c: null, _deleted: true })).toBeNull();
  });
});

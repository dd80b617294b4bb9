/**
 * A bench pushes what its own routes stored: every record the routes of a collection with a declared
 * schema write (seeded demo data, creates, updates, derived fields, job moves, portal tickets) must pass
 * the check central applies to pushed fields, or a legitimate bench could never sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldProblem } from '../http/collection-schema';
import { collectionSchemas } from '../modules';
import { startTestServer, type TestResponse, type TestServer } from '../testing/harness.testkit';

let bench: TestServer;
let checked = 0;

/** Every record of every collection with a schema in the bench workspace, checked as a push of all its fields. */
async function schemaProblems(): Promise<string[]> {
  const ws = bench.ctx.benchWorkspace ?? '';
  const problems: string[] = [];
  checked = 0;
  for (const schema of collectionSchemas) {
    for (const doc of await bench.store.list(ws, schema.coll)) {
      checked += 1;
      const id = schema.idField ? String(doc[schema.idField]) : String(schema.keys?.[0] ?? doc.id);
      const p = fieldProblem(schema, id, doc);
      if (p) problems.push(`${schema.coll} ${id}: ${p.field} ${p.message}`);
    }
  }
  return problems;
}
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

    expect(await schemaProblems()).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('covers records the sales routes write (DaaS, store, trade-in, portal counters, public forms)', async () => {
    const api = bench.client();
    const ok = async <T,>(p: Promise<TestResponse<T>>): Promise<T> => {
      const r = await p;
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    const { quote } = await ok(api.post<{ quote: { id: string } }>('/api/daas/quote', { cust: ' 株式会社テスト ', model: 'Galaxy', price: '88000.4', qty: '250000', term: 7, res: 99, lcm: 'false', expires: '2099-12-31' }));
    await ok(api.post('/api/daas/quote', { id: quote.id, qty: 3.6, war: 0 }));
    await ok(api.post(`/api/daas/quote/${quote.id}/status`, { status: 'proposed' }));
    await ok(api.post(`/api/daas/quote/${quote.id}/status`, { status: 'approved' }));
    await ok(api.post(`/api/daas/quote/${quote.id}/status`, { status: 'contracted' }));
    await ok(api.post(`/api/daas/quote/${quote.id}/status`, { status: 'draft' }));
    await ok(api.post('/api/daas/sim', { model: 'x'.repeat(80), qty: -5, term: 100 }));
    await ok(api.post('/api/daas/send', { quoteId: quote.id, channel: '', to: 't'.repeat(300) }));
    await ok(api.post('/api/daas/send', { cust: 'A社', qty: 12.5, mrr: -1, doc: 42 }));
    const { product } = await ok(api.post<{ product: { id: string } }>('/api/store/product', { name: ' ケース ', price: '1200.6', ic: '' }));
    const { order } = await ok(api.post<{ order: { id: string } }>('/api/store/order', { cust: 'B社', lines: [{ id: product.id, qty: 3 }, { id: 'acc-x', name: '独自品', price: 500, qty: '2' }] }));
    await ok(api.post(`/api/store/order/${order.id}`, { status: '出荷済', dest: 'd'.repeat(400) }));
    await ok(api.post('/api/tradein/buyback', { model: 'iPhone 13', grade: 'c', bat: '71.6', offer: '¥12,000', resell: 9000, note: 'n'.repeat(400) }));
    await ok(api.post('/api/tradein/inventory', { model: 'iPhone 12', grade: 'S', cost: 30000, ask: 20000 }));
    await ok(api.post('/api/tradein/receipt', { cust: 'C社', items: [{ model: 'iPhone 13', qty: 2, price: '3,000' }, { imei: 35 }] }));
    const { state } = await ok(api.get<{ state: Record<string, { id?: string; published?: boolean }> }>('/api/portals'));
    const portal = Object.values(state).find((p) => p?.published === true);
    expect(portal?.id).toBeDefined();
    await ok(api.post(`/api/portal/${String(portal?.id)}`, { action: 'dl' }));
    await ok(api.post(`/api/portal/${String(portal?.id)}`, { action: 'ticket' }));
    await ok(api.post('/api/lead', { name: ' 営業 ', email: 'a@example.jp', message: 'm'.repeat(2000) }));
    const { leads } = await ok(api.get<{ leads: { id: string }[] }>('/api/leads'));
    await ok(api.post(`/api/lead/${leads[0]?.id}`, { status: '商談中', notes: 'x'.repeat(4000), email: '' }));
    const { id: signId } = await ok(api.post<{ id: string }>('/api/sign/create', { client: 'D社', amount: '1500.5', bodyHtml: '<p>見積</p>' }));
    await ok(api.post(`/api/sign/${signId}/submit`, { name: '署名 太郎', agreed: true, signature: 'data:image/png;base64,AAAA' }));
    const { id: bookingId } = await ok(api.post<{ id: string }>('/api/booking', { name: '予約者', when: '来週', topic: 'MDM' }));
    await ok(api.post(`/api/booking/${bookingId}`, { status: '確定' }));
    const { code } = await ok(api.post<{ code: string }>('/api/referral', { code: 'ab c!d' }));
    await ok(api.post(`/api/referral/${code}/track`, {}));
    const { id: partnerId } = await ok(api.post<{ id: string }>('/api/partner', { company: 'E社', email: 'p@example.jp', note: 'n'.repeat(900) }));
    await ok(api.post(`/api/partner/${partnerId}`, { deals: 5000000, revenue: '1200.5', tier: 'gold' }));
    await ok(api.post('/api/review', { comment: '良い', rating: 9, nps: '-3', name: '' }));
    await ok(api.post('/api/review', { comment: '普通', rating: '3.4' }));
    await ok(api.post('/api/event/ev-mdm/register', { email: 'w@example.jp', name: '参加者' }));
    await ok(api.post('/api/event/ev-ai/register', { email: 'Mixed.Case@Example.jp', name: 'n'.repeat(300), company: 7 }));
    await ok(api.post('/api/ab', { variant: 'a', event: 'view' }));
    await ok(api.post('/api/ab', { variant: 'b', event: 'convert' }));

    const sales = new Set(['daasQuotes', 'daasSends', 'daasState', 'storeOrders', 'storeProducts', 'buybacks', 'buybackReceipts', 'refurbStock', 'portalStats', 'leads', 'signs', 'bookings', 'referrals', 'partners', 'reviews', 'eventRegs', 'abStats']);
    expect(await schemaProblems()).toEqual([]);
    const ws = bench.ctx.benchWorkspace ?? '';
    for (const coll of sales) expect((await bench.store.list(ws, coll)).length, coll).toBeGreaterThan(0);
    expect(collectionSchemas.filter((s) => sales.has(s.coll)).length).toBe(sales.size);
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

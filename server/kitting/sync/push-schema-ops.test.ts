/**
 * A bench pushes what its own server stored for alerts, the operations board, erasure certificates and labels:
 * seeded alerts and board rows, acknowledgements, certificates the issue route wrote (with the values it
 * trims, clips and defaults) and label templates and print log entries pass the push check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { ok, storedRecordProblems } from '../testing/route-records.testkit';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

const COLLS = ['alerts', 'ops', 'erasureCerts', 'labelTemplates', 'labelLog'];

describe('records written by the alert, certificate and label routes pass the push schema', () => {
  it('covers seeded records and records the routes create, clip and default', async () => {
    const api = bench.client();
    const { alerts } = await ok(api.get<{ alerts: { id: string }[] }>('/api/alerts'));
    await ok(api.post(`/api/alert/${alerts[0]?.id ?? ''}/ack`, {}));
    await ok(api.post('/api/cert', { cust: '  A社 ', count: 3 }));
    await ok(api.post('/api/cert', { cust: 'c'.repeat(200), methodKey: 'destroy', date: '2026-11-20', operator: ' 高橋 ', devices: [{ model: ' iPhone 16 ', id: 356000000000001, storage: null }] }));
    await ok(api.post('/api/labels/template', { name: '', size: 'xl', fields: { qr: 'false', mgmt: 0 } }));
    await ok(api.post('/api/labels/template', { id: 'tpl-mine', name: 'n'.repeat(100), size: 's', ts: '1700000000000' }));
    await ok(api.post('/api/labels/log', { count: '0' }));
    await ok(api.post('/api/labels/log', { size: 'l', count: 500000, date: '2026-11-20', result: 'failed', reason: 'r'.repeat(300), printer: ' ZD421 ' }));

    expect(await storedRecordProblems(bench, COLLS)).toEqual({ problems: [], empty: [] });
  });
});

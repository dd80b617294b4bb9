/**
 * A bench pushes what its own routes stored, for the support, management and settings collections too:
 * every record the survey, workdesk, report, forecast, ESG, compliance, network and integration routes write
 * (seeded demo data included, with values the routes clip, default or normalise) passes the push check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { ok, storedRecordProblems } from '../testing/route-records.testkit';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

const COLLS = [
  'survey', 'surveyResponses', 'workdesk', 'workdeskDocs', 'workdeskThreads', 'reports', 'forecast', 'esg',
  'compliance', 'capa', 'auditLog', 'custody', 'centers', 'network', 'networkDeals', 'integrations', 'syncLog',
];

describe('records written by the back-office routes pass the push schema', () => {
  it('covers seeded records and records the routes create, update, clip and default', async () => {
    const api = bench.client();
    // survey
    await ok(api.post('/api/survey/send', { batch: '3' }));
    const { response } = await ok(api.post<{ response: { id: string } }>('/api/survey/response', { cust: 'A社', k: 'NPS', nps: '12', comment: 'c'.repeat(1200) }));
    await ok(api.post('/api/survey/response', { cust: 12, k: 'other', nps: 7.4, csat: 0, src: '', date: '2026-11-20' }));
    await ok(api.post(`/api/survey/followup/${response.id}`, { action: 'a'.repeat(80), note: 4 }));
    // workdesk
    const { doc } = await ok(api.post<{ doc: { id: string } }>('/api/workdesk/doc', { name: 'n'.repeat(300), size: -5, date: '2026-11-20', text: '本文' }));
    await ok(api.post('/api/workdesk/doc', { id: doc.id, status: '更新', size: '2048' }));
    const { thread } = await ok(api.post<{ thread: { id: string } }>('/api/workdesk/thread', { title: '', msgs: [{ text: 'こんにちは', typing: null }] }));
    await ok(api.post(`/api/workdesk/thread/${thread.id}`, { append: { role: 'assistant', text: '回答', srcs: ['doc-1', { id: 'x' }] } }));
    await ok(api.post('/api/workdesk/thread/thr-new', { title: 't'.repeat(200), ts: '1700000000000', append: [{ html: '<b>x</b>' }] }));
    await ok(api.post('/api/workdesk/conn', { map: { drive: true, ['k'.repeat(50)]: false } }));
    // reports, forecast
    await ok(api.post('/api/report/generate', {}));
    await ok(api.post('/api/report/generate', { month: 2611 }));
    await ok(api.post('/api/forecast/prefs', { horizon: '16', sim: 2 }));
    // compliance
    await ok(api.request('PUT', '/api/compliance/controls/isms', { controls: Array(120).fill(true) }));
    await ok(api.post('/api/compliance/capa/CAPA-001', { state: ' 完了 ' }));
    await ok(api.post('/api/audit-log', { action: ' 設定を変更 ', ts: '', user: '', target: 't'.repeat(300), cat: 42 }));
    await ok(api.post('/api/audit-log', { action: 'ログイン', ts: '2026-11-20 09:30', result: '失敗' }));
    const step = { label: '受入', role: '倉庫', who: '高橋', dt: '2026-11-20T09:00', state: '完了', sign: '高橋' };
    await ok(api.post('/api/compliance/custody', { imei: 356000000000001, model: 'iPhone 16', steps: [step, { ...step, label: ' 消去 ', dt: '2026-11-20 10:00' }] }));
    // network
    await ok(api.post('/api/network/deal', { units: '5', rate: '1200.6', partner: '', status: '  ' }));
    await ok(api.post('/api/network/deal', { units: 8, dir: 'accept', kind: 'k'.repeat(60), status: ' 交渉中 ' }));
    await ok(api.post('/api/network/center', { name: ' 新センター ', mdm: [' Intune ', '', 7], slots: '40' }));
    await ok(api.post('/api/network/center', { id: 'c-tokyo1', slots: '500', certs: ['ISMS'], region: '' }));
    await ok(api.post('/api/network/oem', { brand: 'b'.repeat(30), logo: 'LOGO', plan: 'gold' }));
    // integrations
    await ok(api.request('PUT', '/api/integrations/rules', { rules: { 'r-ship': 'false', ['k'.repeat(50)]: 1 }, extraRules: [{ trig: 't', act: 'a' }, { id: 'mine', on: 'true', ic: 5 }] }));
    await ok(api.post('/api/integrations/log', { service: '', time: '2026-11-24' }));
    await ok(api.post('/api/integrations/log', { service: 'MDM', kind: 'push', result: 12 }));

    expect(await storedRecordProblems(bench, COLLS)).toEqual({ problems: [], empty: [] });
  });
});

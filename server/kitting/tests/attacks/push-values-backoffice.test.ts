/**
 * Pushed values the back-office routes would refuse, clip or replace (survey, workdesk, reports, forecast, ESG,
 * compliance, network, integrations): each is refused with 422 invalid_field and nothing of the batch is
 * stored, while records with values the routes would store go through.
 */
import { describe, expect, it } from 'vitest';
import { pushHarness } from './helpers.testkit';

const h = pushHarness('push-backoffice@example.jp', 'bench-backoffice');
const { refused, accepted } = h;

const step = { label: '受入', role: '倉庫', who: '高橋', dt: '2026-11-20 09:00', state: '完了', sign: '高橋' };

describe('pushes into the support, management and settings collections pass the routes’ rules', () => {
  it('survey: a score out of range, an unknown kind, an impossible date, a follow-up the route would clip', async () => {
    await refused('surveyResponses', 'sv-900', { id: 'sv-900', cust: 'A社', k: 'NPS', nps: 11 }, 'nps');
    await refused('surveyResponses', 'sv-901', { nps: '7' }, 'nps');
    await refused('surveyResponses', 'sv-902', { csat: 0 }, 'csat');
    await refused('surveyResponses', 'sv-903', { k: 'CES' }, 'k');
    await refused('surveyResponses', 'sv-904', { date: '2026-02-30' }, 'date');
    await refused('surveyResponses', 'sv-905', { src: '' }, 'src');
    await refused('surveyResponses', 'sv-906', { comment: 'c'.repeat(1001) }, 'comment');
    await refused('surveyResponses', 'sv-907', { owner: 'attacker' }, 'owner');
    await refused('survey', 'followups', { map: { 'sv-1': { action: 'a'.repeat(61), note: '', date: '2026-11-20' } } }, 'map');
    await refused('survey', 'followups', { map: { 'sv-1': { action: '電話', note: '', date: '2026-11-20', html: '<b>' } } }, 'map');
    await refused('survey', 'sent', { count: -1 }, 'count');
    await refused('survey', 'sent', { count: '12' }, 'count');
    await accepted('surveyResponses', 'sv-908', { id: 'sv-908', date: '2026-11-20', cust: 'A社', src: 'メール', k: 'CSAT', csat: 4, comment: '良い', ts: 1 });
    await accepted('survey', 'followups', { id: 'followups', map: { 'sv-908': { action: '電話', note: '確認済', date: '2026-11-21' } } });
    await accepted('survey', 'sent', { id: 'sent', count: 30 });
  });

  it('workdesk: a negative size, an impossible date, messages the routes would rewrite, connectors that are not switches', async () => {
    await refused('workdeskDocs', 'doc-900', { id: 'doc-900', name: '手順書', size: -1 }, 'size');
    await refused('workdeskDocs', 'doc-901', { date: '2026-13-01' }, 'date');
    await refused('workdeskDocs', 'doc-902', { name: 'n'.repeat(201) }, 'name');
    await refused('workdeskThreads', 'thr-900', { title: '' }, 'title');
    await refused('workdeskThreads', 'thr-901', { msgs: [{ text: 'role missing' }] }, 'msgs');
    await refused('workdeskThreads', 'thr-902', { msgs: [{ role: 'user', text: 'x', script: 'alert(1)' }] }, 'msgs');
    await refused('workdeskThreads', 'thr-903', { msgs: Array.from({ length: 501 }, () => ({ role: 'user', text: 'x' })) }, 'msgs');
    await refused('workdeskThreads', 'thr-904', { ts: 'now' }, 'ts');
    await refused('workdesk', 'conn', { map: { drive: 'on' } }, 'map');
    await refused('workdesk', 'conn', { map: { ['k'.repeat(41)]: true } }, 'map');
    await accepted('workdeskDocs', 'doc-903', { id: 'doc-903', name: '手順書', type: 'PDF', size: 2048, status: '索引済', date: '2026-11-20', created: 1 });
    await accepted('workdeskThreads', 'thr-905', { id: 'thr-905', title: '相談', ts: 1, msgs: [{ role: 'user', text: '質問' }], created: 1 });
    await accepted('workdesk', 'conn', { id: 'conn', map: { drive: true, mail: false } });
  });

  it('reports, forecast and ESG: figures that are not counts, unknown scopes, prefs the route refuses, negative or textual ESG figures', async () => {
    await refused('reports', 'RPT-2611-all', { figures: { dev: 'many' } }, 'figures');
    await refused('reports', 'RPT-2611-all', { figures: { dev: 1, kit: 0, swap: 0, tk: 0, slaPct: 101, sla: '0/0', lost: 0, wipe: 0, inb: 0, out: 0, store: 0, revenue: 0, wipeCerts: 0 } }, 'figures');
    await refused('reports', 'RPT-2611-all', { scope: { dev: 'month' } }, 'scope');
    await refused('reports', 'RPT-2611-all', { month: '2613' }, 'month');
    await refused('reports', 'RPT-2611-all', { asOf: 'yesterday' }, 'asOf');
    await refused('forecast', 'prefs', { horizon: 10 }, 'horizon');
    await refused('forecast', 'prefs', { horizon: '12' }, 'horizon');
    await refused('forecast', 'prefs', { sim: 3 }, 'sim');
    await refused('esg', 'settings', { co2e: 0 }, 'co2e');
    await refused('esg', 'settings', { ewaste: -1 }, 'ewaste');
    await refused('esg', '2026-10', { month: '2026-13' }, 'month');
    await refused('esg', '2026-10', { units: '252' }, 'units');
    await refused('esg', '2026-10', { customers: { A社: { units: 1, ret: 1, reuse: -1 } } }, 'customers');
    await accepted('reports', 'RPT-2611-all', { id: 'RPT-2611-all', cust: null, custLabel: '全顧客', month: '2611', monthLabel: '2026年11月', hasData: false, asOf: '2026-11-24', generatedAt: 1 });
    await accepted('forecast', 'prefs', { id: 'prefs', horizon: 16, sim: 1 });
    await accepted('esg', '2026-10', { id: '2026-10', month: '2026-10', units: 10, ret: 4, reuse: 2, customers: { A社: { units: 10, ret: 4, reuse: 2 } } });
  });

  it('compliance: controls that are not booleans, a blank CAPA state or impossible due, audit rows the route would rewrite, incomplete custody', async () => {
    await refused('compliance', 'controls', { isms: [true, 'yes'] }, 'isms');
    await refused('compliance', 'controls', { pmark: Array(101).fill(true) }, 'pmark');
    await refused('capa', 'CAPA-001', { state: ' ' }, 'state');
    await refused('capa', 'CAPA-001', { state: ' 完了' }, 'state');
    await refused('capa', 'CAPA-001', { due: '2026-12-32' }, 'due');
    await refused('auditLog', 'al-0900', { id: 'al-0900', action: '', ts: '2026-11-20 09:00' }, 'action');
    await refused('auditLog', 'al-0901', { ts: '2026-11-20T09:00:00Z' }, 'ts');
    await refused('auditLog', 'al-0902', { user: '' }, 'user');
    await refused('auditLog', 'al-0903', { target: 't'.repeat(201) }, 'target');
    await refused('auditLog', 'al-0904', { seq: 0 }, 'seq');
    await refused('custody', 'cus-900', { imei: '' }, 'imei');
    await refused('custody', 'cus-901', { steps: [] }, 'steps');
    await refused('custody', 'cus-902', { steps: [{ ...step, sign: '（未署名）' }] }, 'steps');
    await refused('custody', 'cus-903', { steps: [{ ...step, dt: '2026-11-20 10:00' }, step] }, 'steps');
    await refused('custody', 'cus-904', { steps: Array.from({ length: 51 }, () => step) }, 'steps');
    await accepted('compliance', 'controls', { id: 'controls', isms: [true, false], soc2: [] });
    await accepted('capa', 'CAPA-001', { state: '完了', updated: 1 });
    await accepted('auditLog', 'al-0905', { id: 'al-0905', seq: 905, ts: '2026-11-20 09:00', user: '高橋', action: '設定を変更', target: '—', result: '成功', cat: 'audit', created: 1 });
    await accepted('custody', 'cus-905', { id: 'cus-905', imei: '356000000000001', model: 'iPhone 16', cust: '', steps: [step], created: 1 });
  });

  it('network: deals the route would refuse or default, centers with a blank name or negative figures, an unknown OEM plan', async () => {
    await refused('networkDeals', 'nd-900', { id: 'nd-900', units: 0 }, 'units');
    await refused('networkDeals', 'nd-901', { units: 2.5 }, 'units');
    await refused('networkDeals', 'nd-902', { rate: 1200.5 }, 'rate');
    await refused('networkDeals', 'nd-903', { dir: 'sell' }, 'dir');
    await refused('networkDeals', 'nd-904', { partner: '' }, 'partner');
    await refused('networkDeals', 'nd-905', { status: '' }, 'status');
    await refused('centers', 'c-x900', { name: '  ' }, 'name');
    await refused('centers', 'c-x901', { slots: -1 }, 'slots');
    await refused('centers', 'c-x902', { rate: '1800' }, 'rate');
    await refused('centers', 'c-x903', { mdm: [' Intune'] }, 'mdm');
    await refused('network', 'oem', { plan: 'gold' }, 'plan');
    await refused('network', 'oem', { logo: 'ABC' }, 'logo');
    await accepted('networkDeals', 'nd-906', { id: 'nd-906', seq: 1, dir: 'accept', partner: 'B社', kind: 'キッティング枠', units: 20, period: '—', rate: 1800, status: '対応中', created: 1 });
    await accepted('centers', 'c-x904', { id: 'c-x904', name: '札幌センター', region: '北海道', mdm: ['Intune'], slots: 50, shelf: 300, rate: 1500, certs: [] });
    await accepted('network', 'oem', { id: 'oem', brand: 'KIT', logo: 'K', domain: 'kit.example.jp', plan: 'rev' });
  });

  it('integrations: switches that are not booleans, extra rules the route would rewrite, a log entry with a blank service or a time not in ISO form', async () => {
    await refused('integrations', 'rules', { rules: { 'r-ship': 'true' } }, 'rules');
    await refused('integrations', 'rules', { rules: { ['r'.repeat(41)]: true } }, 'rules');
    await refused('integrations', 'rules', { extraRules: [{ id: '', trig: 't', act: 'a', ic: '', on: true }] }, 'extraRules');
    await refused('integrations', 'rules', { extraRules: [{ id: 'x-1', trig: 't', act: 'a', ic: '' }] }, 'extraRules');
    await refused('syncLog', 'LOG-0900', { id: 'LOG-0900', service: '' }, 'service');
    await refused('syncLog', 'LOG-0901', { time: '2026-11-24' }, 'time');
    await refused('syncLog', 'LOG-0902', { result: 'r'.repeat(61) }, 'result');
    await accepted('integrations', 'rules', { id: 'rules', rules: { 'r-ship': false }, extraRules: [{ id: 'x-1', trig: 't', act: 'a', ic: '', on: true }] });
    await accepted('syncLog', 'LOG-0903', { id: 'LOG-0903', seq: 903, service: 'MDM', kind: 'sync', result: '成功', time: '2026-11-24T00:00:00.000Z' });
  });
});

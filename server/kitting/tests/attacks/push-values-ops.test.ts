/**
 * Pushed alerts, operations board rows, erasure certificates and label records with values the server would
 * never store (the routes refuse, clip or replace them, or no route writes them): each is refused with 422
 * invalid_field and nothing of the batch is stored, while records as the routes store them go through.
 */
import { describe, expect, it } from 'vitest';
import { pushHarness } from './helpers.testkit';

const h = pushHarness('push-ops@example.jp', 'bench-ops');
const { refused, accepted } = h;

const device = { model: 'iPhone 16', id: '356000000000001', storage: '128GB' };
const cert = { no: 'KIT-ERZ-2026-0900', cust: 'A社', methodKey: 'purge', method: 'Purge', nist: 'NIST SP 800-88 Purge', date: '2026-11-20', count: 1, devices: [device], operator: '高橋', issuedAt: 1763600000000 };

describe('pushes into the alert, certificate and label collections pass the routes’ rules', () => {
  it('alerts and the operations board: only what the server writes', async () => {
    await refused('alerts', 'al-900', { ack: 'yes' }, 'ack');
    await refused('alerts', 'al-901', { late: 1 }, 'late');
    await refused('alerts', 'al-902', { acked: -5 }, 'acked');
    await refused('alerts', 'al-903', { detail: 'd'.repeat(301) }, 'detail');
    await refused('alerts', 'al-904', { action: { label: '実行', href: 'https://evil.example' } }, 'action');
    await refused('alerts', 'al-905', { owner: 'attacker' }, 'owner');
    await refused('ops', 'op-900', { title: 't'.repeat(201) }, 'title');
    await refused('ops', 'op-901', { status: 3 }, 'status');
    await accepted('alerts', 'al-910', { id: 'al-910', label: '遅延', late: true, ack: true, acked: Date.now(), action: { label: '確認', danger: false, toast: '送信しました' } });
    await accepted('ops', 'op-910', { id: 'op-910', time: '09:00', title: '入荷', status: '完了' });
  });

  it('erasure certificates: a blank customer, an unknown method, an impossible date, devices the route would rewrite', async () => {
    await refused('erasureCerts', 'KIT-ERZ-2026-0901', { ...cert, no: 'KIT-ERZ-2026-0901', cust: '' }, 'cust');
    await refused('erasureCerts', 'KIT-ERZ-2026-0902', { cust: ' A社' }, 'cust');
    await refused('erasureCerts', 'KIT-ERZ-2026-0903', { methodKey: 'shred' }, 'methodKey');
    await refused('erasureCerts', 'KIT-ERZ-2026-0904', { date: '2026-02-30' }, 'date');
    await refused('erasureCerts', 'KIT-ERZ-2026-0905', { count: 0 }, 'count');
    await refused('erasureCerts', 'KIT-ERZ-2026-0906', { devices: ['356000000000001'] }, 'devices');
    await refused('erasureCerts', 'KIT-ERZ-2026-0907', { devices: [{ ...device, id: 'i'.repeat(41) }] }, 'devices');
    await refused('erasureCerts', 'KIT-ERZ-2026-0908', { operator: '' }, 'operator');
    await refused('erasureCerts', 'KIT-ERZ-2026-0909', { no: 'KIT-ERZ-2026-0001' }, 'no');
    await refused('erasureCerts', 'KIT-ERZ-2026-0910', { verified: true }, 'verified');
    await accepted('erasureCerts', cert.no, cert);
  });

  it('labels: a blank name, an unknown size, partial field flags, a count out of range, an empty reason', async () => {
    await refused('labelTemplates', 'tpl-900', { name: '' }, 'name');
    await refused('labelTemplates', 'tpl-901', { size: 'xl' }, 'size');
    await refused('labelTemplates', 'tpl-902', { fields: { qr: false } }, 'fields');
    await refused('labelTemplates', 'tpl-903', { ts: 0 }, 'ts');
    await refused('labelLog', 'lg-900', { count: 0 }, 'count');
    await refused('labelLog', 'lg-901', { count: 100001 }, 'count');
    await refused('labelLog', 'lg-902', { result: 'maybe' }, 'result');
    await refused('labelLog', 'lg-903', { reason: '' }, 'reason');
    await refused('labelLog', 'lg-904', { date: '2026-13-01' }, 'date');
    await refused('labelLog', 'lg-906', { date: '2026-02-30' }, 'date');
    await refused('labelLog', 'lg-905', { html: '<script>' }, 'html');
    const fields = { mgmt: true, imei: true, cust: false, model: true, qr: true, barcode: false };
    await accepted('labelTemplates', 'tpl-910', { id: 'tpl-910', name: '小', size: 's', fields, ts: Date.now() });
    await accepted('labelLog', 'lg-910', { id: 'lg-910', ts: Date.now(), date: '2026-11-20', count: 3, size: 'm', result: 'failed', reason: '用紙切れ' });
  });
});

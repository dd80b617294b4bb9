import { describe, expect, it } from 'vitest';
import { CAPACITY_LOAD, LOAD_SERIES } from '../modules/capacity/capacity.service';
import { certNo, certSeries, ERASURE_CERTS } from '../modules/certs/certs.service';
import { AUDIT_LOG } from '../modules/compliance/compliance.service';
import { AUDIT_SERIES } from '../modules/compliance/compliance.service';
import { ASSET_SERIES, DEVICES } from '../modules/devices/devices.service';
import { DOCK_RESERVATIONS, DOCK_SERIES } from '../modules/dock/dock.service';
import { INQUIRY_SERIES } from '../modules/inquiries/inquiries.service';
import { SYNC_LOG, SYNC_LOG_SERIES } from '../modules/integrations/integrations.service';
import { invoiceId, INVOICES, invoiceSeries } from '../modules/invoices/invoices.service';
import { INBOUND } from '../modules/inbound/inbound.service';
import { NETWORK_DEALS } from '../modules/network/network.service';
import { QUOTES } from '../modules/quotes/quote-model';
import { SHIFT_HISTORY } from '../modules/shifts/shifts.service';
import { SHIPMENT_SERIES } from '../modules/shipments/shipments.service';
import { orderSeries, STORE_ORDERS } from '../modules/store-orders/store-orders.service';
import { TICKET_MESSAGES, TICKET_SERIES, ticketId, TICKETS } from '../modules/tickets/tickets.service';
import { RECEIPTS, receiptSeries } from '../modules/tradein/tradein.service';
import { SqliteStore } from '../store/sqlite-store';
import type { Doc, WireRecord } from '../store/types';
import { numberedSeries } from '../store/series';
import { allRoutes } from '../modules';
import { planRenumbering, renumberLocal } from './numbered';

/** [collection, value as the module writes it, its series] per numbered field of the modules. */
const MODULE_IDS: [string, string | number, string][] = [
  ['shipments', 'SHP-1012', SHIPMENT_SERIES],
  [TICKETS, ticketId(701), TICKET_SERIES],
  ['inquiries', String(12).padStart(5, '0'), INQUIRY_SERIES],
  [INVOICES, invoiceId('2611', 7), invoiceSeries('2611')],
  [ERASURE_CERTS, certNo(2026, 3), certSeries(2026)],
  [CAPACITY_LOAD, 'CAP-0004', LOAD_SERIES],
  [DOCK_RESERVATIONS, 'RV-0005', DOCK_SERIES],
  [SYNC_LOG, 'LOG-0006', SYNC_LOG_SERIES],
  [AUDIT_LOG, 'al-0007', AUDIT_SERIES],
  [SHIFT_HISTORY, 'snap-00008', 'shiftHistory'],
  [STORE_ORDERS, 'AO-202611-0009', orderSeries('202611')],
  [RECEIPTS, 'KIT-BUY-2026-0010', receiptSeries(2026)],
  [QUOTES, 'Q-2611-011', 'quote:2611'],
  [DEVICES, 'HK-26-179', ASSET_SERIES],
  [NETWORK_DEALS, 13, 'networkDeal'],
  [INBOUND, 'IB-26-0014', 'inbound:26'],
];

describe('numbered series: the registry the modules declare in', () => {
  it('holds every numbered field of the app, reads each format back to its counter and writes it the same way', () => {
    expect(allRoutes.length).toBeGreaterThan(0);
    const all = numberedSeries.all();
    expect(all).toHaveLength(MODULE_IDS.length);
    for (const [coll, value, series] of MODULE_IDS) {
      const t = all.find((x) => x.coll === coll);
      expect(t, coll).toBeDefined();
      if (!t) continue;
      const m = t.pattern.exec(String(value));
      expect(m, `${coll} ${value}`).not.toBeNull();
      if (!m) continue;
      const period = m.groups?.p ?? '';
      expect(t.counter(period)).toBe(series);
      expect(numberedSeries.find(series)).toEqual({ series: t, period });
      expect(t.format(Number(m.groups?.n), period)).toBe(value);
    }
    const tickets = all.find((x) => x.coll === TICKETS);
    expect(tickets?.references).toEqual([{ coll: TICKET_MESSAGES, field: 'ticketId' }]);
  });
});

const rec = (coll: string, id: string, data: Doc, deleted = false): WireRecord => ({ coll, id, data, stamps: {}, deleted });

describe('planRenumbering', () => {
  const shifts = { shipment: { base: 1008, level: 1010, offset: 5 }, ticket: { base: 672, level: 673, offset: 2 }, asset: { base: 178, level: 180, offset: 10 } };

  it('moves only numbers above the seeded base and up to the bench level, tombstones included', () => {
    const out = planRenumbering(
      [
        rec('shipments', 'SHP-1008', { id: 'SHP-1008', customer: 'demo' }),
        rec('shipments', 'SHP-1009', { id: 'SHP-1009', customer: 'a' }),
        rec('shipments', 'SHP-1010', { id: 'SHP-1010', customer: 'b' }, true),
        rec('shipments', 'SHP-1011', { id: 'SHP-1011', customer: 'c' }),
        rec('jobs', 'SHP-1009', { id: 'SHP-1009' }),
      ],
      shifts,
    );
    expect(out).toEqual([
      { coll: 'shipments', from: 'SHP-1009', to: 'SHP-1014', data: { id: 'SHP-1014', customer: 'a' }, changed: ['id'] },
      { coll: 'shipments', from: 'SHP-1010', to: 'SHP-1015', data: { id: 'SHP-1015', customer: 'b' }, changed: ['id'] },
    ]);
  });

  it('moves the messages with their ticket, and a device serial with its asset number', () => {
    const out = planRenumbering(
      [
        rec('tickets', 'TK-0673', { id: 'TK-0673' }),
        rec('ticketMessages', 'msg-1', { id: 'msg-1', ticketId: 'TK-0673' }),
        rec('ticketMessages', 'msg-2', { id: 'msg-2', ticketId: 'TK-0672' }),
        rec('devices', '351', { imei: '351', asset: 'HK-26-179', serial: 'PXL-000179' }),
        rec('devices', '352', { imei: '352', asset: 'HK-26-180', serial: 'MY-OWN' }),
      ],
      shifts,
    );
    expect(out).toEqual([
      { coll: 'tickets', from: 'TK-0673', to: 'TK-0675', data: { id: 'TK-0675' }, changed: ['id'] },
      { coll: 'devices', from: '351', to: '351', data: { imei: '351', asset: 'HK-26-189', serial: 'PXL-000189' }, changed: ['asset', 'serial'] },
      { coll: 'devices', from: '352', to: '352', data: { imei: '352', asset: 'HK-26-190', serial: 'MY-OWN' }, changed: ['asset'] },
      { coll: 'ticketMessages', from: 'msg-1', to: 'msg-1', data: { id: 'msg-1', ticketId: 'TK-0675' }, changed: ['ticketId'] },
    ]);
  });

  it('a certificate keeps its first number in formerNo', () => {
    const [w] = planRenumbering([rec('erasureCerts', 'KIT-ERZ-2026-0002', { no: 'KIT-ERZ-2026-0002', formerNo: 'KIT-ERZ-2026-0001' })], {
      'erz:2026': { base: 0, level: 2, offset: 4 },
    });
    expect(w).toMatchObject({ to: 'KIT-ERZ-2026-0006', data: { no: 'KIT-ERZ-2026-0006', formerNo: 'KIT-ERZ-2026-0001' } });
  });
});

describe('renumberLocal', () => {
  it('drops old keys without a tombstone, logs the new ones and raises the counter past the range', async () => {
    const store = new SqliteStore({ file: ':memory:', node: 'b1' });
    await store.createWorkspace('b-local', 'bench');
    await store.transact('b-local', async (tx) => {
      for (const customer of ['a', 'b']) {
        const id = `SHP-${await tx.next('shipment', { start: 1001 })}`;
        await tx.put('shipments', id, { id, customer });
      }
    });
    const levels = await store.replica.localSeries('b-local');
    expect(levels.shipment).toBe(1002);
    const n = await renumberLocal(store, 'b-local', { shipment: 10 }, levels, {});
    expect(n).toBe(2);
    const rows = store.db.prepare<[], { id: string; deleted: number }>("SELECT id, deleted FROM records WHERE ws = 'b-local' ORDER BY id").all();
    expect(rows).toEqual([
      { id: 'SHP-1011', deleted: 0 },
      { id: 'SHP-1012', deleted: 0 },
    ]);
    expect((await store.get('b-local', 'shipments', 'SHP-1011'))?.customer).toBe('a');
    const logged = store.db.prepare<[], { id: string }>("SELECT DISTINCT id FROM changes WHERE ws = 'b-local' AND origin = '' ORDER BY id").all();
    expect(logged.map((r) => r.id)).toEqual(['SHP-1001', 'SHP-1002', 'SHP-1011', 'SHP-1012']);
    expect((await store.replica.localSeries('b-local')).shipment).toBe(1012);
    store.close();
  });

  it('refuses, changing nothing, when a number was issued after the plan was made', async () => {
    const store = new SqliteStore({ file: ':memory:', node: 'b2' });
    await store.createWorkspace('b-local', 'bench');
    const issue = () =>
      store.transact('b-local', async (tx) => {
        const id = `SHP-${await tx.next('shipment', { start: 1001 })}`;
        await tx.put('shipments', id, { id });
      });
    await issue();
    const levels = await store.replica.localSeries('b-local');
    await issue();
    await expect(renumberLocal(store, 'b-local', { shipment: 10 }, levels, {})).rejects.toThrow(/enrol again/);
    expect((await store.list('b-local', 'shipments')).map((d) => d.id)).toEqual(['SHP-1001', 'SHP-1002']);
    store.close();
  });
});

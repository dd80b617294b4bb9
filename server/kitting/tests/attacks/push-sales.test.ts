/**
 * Pushed values the sales routes would refuse, clip or replace (DaaS quotes, sends and simulator, the
 * accessory store, trade-in, portal counters, the public forms and their follow-up pages): each is
 * refused with 422 invalid_field and nothing of the batch is stored, while records as the routes store
 * them go through and read back through the routes.
 */
import { describe, expect, it } from 'vitest';
import { pushHarness } from './helpers.testkit';

const h = pushHarness('push-sales@example.jp', 'bench-sales');
const { refused, accepted } = h;

const get = async <T,>(path: string) => {
  const r = await h.owner.c.get<T>(path, h.owner.auth);
  expect(r.status, r.text).toBe(200);
  return r.body;
};

describe('DaaS pushes pass the daas routes’ rules', () => {
  const quote = {
    id: 'DQ-push', cust: '株式会社プッシュ', model: 'iPhone 16', qty: 10, term: 36, res: 20, lcm: true, war: false, price: 124800,
    monthly: 3480, mrr: 34800, expires: '2099-12-31', ts: 1, updated: 1, status: 'draft', statusTs: 1, statusLabel: '下書き', contracted: null,
  };

  it('quotes: terms the route would clamp or default, a price that is not whole yen, a bad date, an unknown stage or label', async () => {
    await refused('daasQuotes', 'DQ-bad', { ...quote, id: 'DQ-bad', qty: 0 }, 'qty');
    await refused('daasQuotes', 'DQ-bad', { term: 100 }, 'term');
    await refused('daasQuotes', 'DQ-bad', { res: 12.5 }, 'res');
    await refused('daasQuotes', 'DQ-bad', { lcm: 'yes' }, 'lcm');
    await refused('daasQuotes', 'DQ-bad', { price: -5 }, 'price');
    await refused('daasQuotes', 'DQ-bad', { price: '124800' }, 'price');
    await refused('daasQuotes', 'DQ-bad', { cust: ' 前後に空白 ' }, 'cust');
    await refused('daasQuotes', 'DQ-bad', { model: '' }, 'model');
    await refused('daasQuotes', 'DQ-bad', { expires: '2026-13-01' }, 'expires');
    await refused('daasQuotes', 'DQ-bad', { status: 'cancelled' }, 'status');
    await refused('daasQuotes', 'DQ-bad', { statusLabel: '却下' }, 'statusLabel');
    await refused('daasQuotes', 'DQ-bad', { mrr: -1 }, 'mrr');
    await refused('daasQuotes', 'DQ-bad', { contracted: 'yesterday' }, 'contracted');
    await refused('daasQuotes', 'DQ-bad', { discount: 50 }, 'discount');
    await accepted('daasQuotes', quote.id, quote);
    const { quotes } = await get<{ quotes: { id: string; cust: string }[] }>('/api/daas');
    expect(quotes.find((q) => q.id === quote.id)?.cust).toBe(quote.cust);
  });

  it('simulator and sends: a record other than the simulator’s, clamped terms, an empty customer, figures the route rounds', async () => {
    await refused('daasState', 'other', { id: 'other', qty: 5 }, 'id');
    await refused('daasState', 'sim', { res: 80 }, 'res');
    await refused('daasSends', 'ds-bad', { id: 'ds-bad', cust: '' }, 'cust');
    await refused('daasSends', 'ds-bad', { channel: '' }, 'channel');
    await refused('daasSends', 'ds-bad', { to: 'x'.repeat(201) }, 'to');
    await refused('daasSends', 'ds-bad', { qty: 2.5 }, 'qty');
    await refused('daasSends', 'ds-bad', { quoteId: 42 }, 'quoteId');
    await accepted('daasState', 'sim', { id: 'sim', cust: '', model: 'Pixel 8a', qty: 30, term: 24, res: 10, lcm: true, war: true, updated: 1 });
    await accepted('daasSends', 'ds-push', { id: 'ds-push', ts: 1, cust: 'A社', channel: 'メール', to: '', doc: '', quoteId: null, model: '', qty: 0, mrr: 0 });
    const view = await get<{ sim: { model: string }; sends: { id: string }[] }>('/api/daas');
    expect(view.sim.model).toBe('Pixel 8a');
    expect(view.sends.some((s) => s.id === 'ds-push')).toBe(true);
  });
});

describe('accessory store pushes pass the store routes’ rules', () => {
  const line = { id: 'acc-1', name: 'ケース', price: 1200, cost: 600, qty: 2 };

  it('orders: no lines, lines the route would refuse or complete, an empty status, figures out of bounds', async () => {
    await refused('storeOrders', 'AO-202611-9001', { id: 'AO-202611-9001', lines: [] }, 'lines');
    await refused('storeOrders', 'AO-202611-9001', { lines: [{ ...line, price: -1 }] }, 'lines');
    await refused('storeOrders', 'AO-202611-9001', { lines: [{ ...line, qty: 0 }] }, 'lines');
    await refused('storeOrders', 'AO-202611-9001', { lines: [{ id: 'acc-1', qty: 2 }] }, 'lines');
    await refused('storeOrders', 'AO-202611-9001', { lines: [{ ...line, owner: 'x' }] }, 'lines');
    await refused('storeOrders', 'AO-202611-9001', { status: '' }, 'status');
    await refused('storeOrders', 'AO-202611-9001', { dest: 'x'.repeat(301) }, 'dest');
    await refused('storeOrders', 'AO-202611-9001', { count: -1 }, 'count');
    await refused('storeOrders', 'AO-202611-9001', { date: '11/24' }, 'date');
    await accepted('storeOrders', 'AO-202611-9002', {
      id: 'AO-202611-9002', date: '2026-11-24', dateStr: '2026年11月24日', cust: 'B社', job: '', dest: '', lines: [line], count: 2, total: 2400, gp: 1200, status: '確定', created: 1,
    });
    expect((await get<{ orders: { id: string }[] }>('/api/store/orders')).orders.some((o) => o.id === 'AO-202611-9002')).toBe(true);
  });

  it('products: a price as text or in fractions, an empty name, a built-in flag, an over-long icon', async () => {
    await refused('storeProducts', 'cp-bad', { id: 'cp-bad', name: '', price: 100 }, 'name');
    await refused('storeProducts', 'cp-bad', { price: '100' }, 'price');
    await refused('storeProducts', 'cp-bad', { cost: 10.5 }, 'cost');
    await refused('storeProducts', 'cp-bad', { custom: false }, 'custom');
    await refused('storeProducts', 'cp-bad', { ic: '🎁🎁🎁🎁🎁' }, 'ic');
    await refused('storeProducts', 'cp-bad', { cat: '' }, 'cat');
    await accepted('storeProducts', 'cp-push', { id: 'cp-push', name: '保護フィルム', cat: 'その他', ic: '📦', price: 800, cost: 300, note: '', custom: true, created: 1 });
    expect((await get<{ catalog: { id: string }[] }>('/api/store/catalog')).catalog.some((p) => p.id === 'cp-push')).toBe(true);
  });
});

describe('trade-in pushes pass the trade-in routes’ rules', () => {
  it('buybacks, stock and receipts: unknown or lower-case grades, battery out of range, amounts not whole yen, items the route would refuse', async () => {
    await refused('buybacks', 'BB-bad', { id: 'BB-bad', model: 'iPhone 13', grade: 'Z' }, 'grade');
    await refused('buybacks', 'BB-bad', { grade: 'a' }, 'grade');
    await refused('buybacks', 'BB-bad', { bat: 101 }, 'bat');
    await refused('buybacks', 'BB-bad', { offer: 1000.5 }, 'offer');
    await refused('buybacks', 'BB-bad', { model: '' }, 'model');
    await refused('buybacks', 'BB-bad', { margin: 'big' }, 'margin');
    await refused('refurbStock', 'RF-bad', { id: 'RF-bad', cost: -1 }, 'cost');
    await refused('refurbStock', 'RF-bad', { ask: '20,000' }, 'ask');
    await refused('buybackReceipts', 'KIT-BUY-2026-9001', { id: 'KIT-BUY-2026-9001', cust: '' }, 'cust');
    await refused('buybackReceipts', 'KIT-BUY-2026-9001', { items: [{ model: 'x', imei: '', grade: '', qty: 0, price: 1 }] }, 'items');
    await refused('buybackReceipts', 'KIT-BUY-2026-9001', { items: [{ model: 'x', imei: '', grade: '', qty: 1, price: 1, paid: true }] }, 'items');
    await refused('buybackReceipts', 'KIT-BUY-2026-9001', { no: 'INV-1' }, 'no');
    await refused('buybackReceipts', 'KIT-BUY-2026-9001', { total: -5 }, 'total');
    await accepted('buybacks', 'BB-push', { id: 'BB-push', date: '2026-11-24', model: 'iPhone 13', cust: '', grade: 'B', bat: 85, offer: 20000, resell: 40000, refurb: 3500, residual: 36500, margin: 16500, imei: '', note: '', ts: 1 });
    await accepted('buybackReceipts', 'KIT-BUY-2026-9002', {
      no: 'KIT-BUY-2026-9002', id: 'KIT-BUY-2026-9002', date: '2026-11-24', dateJa: '2026年11月24日', cust: 'C社', person: '', items: [{ model: 'iPhone 13', imei: '', grade: 'B', qty: 2, price: 3000 }], total: 6000, note: '', ts: 1,
    });
    const view = await get<{ buybacks: { id: string }[]; receipts: { id: string }[] }>('/api/tradein');
    expect(view.buybacks.some((b) => b.id === 'BB-push')).toBe(true);
    expect(view.receipts.some((r) => r.id === 'KIT-BUY-2026-9002')).toBe(true);
  });
});

describe('portal counter pushes hold only the server’s tallies', () => {
  it('a record other than the counters, a negative or fractional count, a field the counters do not have', async () => {
    await refused('portalStats', 'other', { id: 'other', _tickets: 1 }, 'id');
    await refused('portalStats', 'counters', { _tickets: -1 }, '_tickets');
    await refused('portalStats', 'counters', { _dls: 1.5 }, '_dls');
    await refused('portalStats', 'counters', { views: 10 }, 'views');
    await accepted('portalStats', 'counters', { id: 'counters', _tickets: 7, _dls: 3 });
    expect((await get<{ state: { _tickets: number; _dls: number } }>('/api/portals')).state).toMatchObject({ _tickets: 7, _dls: 3 });
  });
});

describe('public form pushes pass the forms’ rules', () => {
  it('leads, bookings and partners: addresses that are not addresses, clipped texts, required fields left empty, clamped counts', async () => {
    await refused('leads', 'L-bad', { id: 'L-bad', email: 'not-an-address' }, 'email');
    await refused('leads', 'L-bad', { notes: 'x'.repeat(3001) }, 'notes');
    await refused('leads', 'L-bad', { source: '' }, 'source');
    await refused('leads', 'L-bad', { message: ' 前後に空白 ' }, 'message');
    await refused('bookings', 'B-bad', { id: 'B-bad', email: 'a@b' }, 'email');
    await refused('bookings', 'B-bad', { status: 's'.repeat(31) }, 'status');
    await refused('bookings', 'B-bad', { topic: 't'.repeat(301) }, 'topic');
    await refused('partners', 'P-bad', { id: 'P-bad', company: '' }, 'company');
    await refused('partners', 'P-bad', { email: '' }, 'email');
    await refused('partners', 'P-bad', { deals: 2_000_000 }, 'deals');
    await refused('partners', 'P-bad', { revenue: 'much' }, 'revenue');
    await refused('partners', 'P-bad', { code: 'no spaces!' }, 'code');
    await refused('referrals', 'R1', { id: 'R1', code: 'a b' }, 'code');
    await refused('referrals', 'R1', { referrer: '' }, 'referrer');
    await refused('referrals', 'R1', { clicks: -1 }, 'clicks');
    await accepted('leads', 'L-push', { id: 'L-push', name: '見込み客', email: 'lead@example.jp', company: 'D社', phone: '', message: '', source: 'web', tenant: '', status: 'new', notes: '', created: 1 });
    await accepted('bookings', 'B-push', { id: 'B-push', name: '予約者', email: '', company: '', phone: '', when: '来週', topic: '', status: 'requested', created: 1 });
    await accepted('partners', 'P-push', { id: 'P-push', company: 'E社', email: 'p@example.jp', contact: '', region: '', note: '', tier: 'registered', status: 'pending', deals: 0, revenue: 0, code: 'PABCD1234', created: 1 });
    await accepted('referrals', 'PABCD1234', { id: 'PABCD1234', code: 'PABCD1234', referrer: 'E社', clicks: 0, leads: 0, created: 1 });
    expect((await get<{ leads: { id: string }[] }>('/api/leads')).leads.some((l) => l.id === 'L-push')).toBe(true);
    expect((await get<{ partners: { id: string }[] }>('/api/partners')).partners.some((p) => p.id === 'P-push')).toBe(true);
  });

  it('signature documents and reviews: negative amounts, oversized documents, unknown states, ratings and scores out of range', async () => {
    await refused('signs', 'SG-bad', { id: 'SG-bad', amount: -1 }, 'amount');
    await refused('signs', 'SG-bad', { amount: 10.5 }, 'amount');
    await refused('signs', 'SG-bad', { bodyHtml: 'x'.repeat(200_001) }, 'bodyHtml');
    await refused('signs', 'SG-bad', { status: 'void' }, 'status');
    await refused('signs', 'SG-bad', { title: '' }, 'title');
    await refused('signs', 'SG-bad', { signedName: '' }, 'signedName');
    await refused('signs', 'SG-bad', { email: 'x@' }, 'email');
    await refused('reviews', 'rv-bad', { id: 'rv-bad', rating: 9 }, 'rating');
    await refused('reviews', 'rv-bad', { nps: 11 }, 'nps');
    await refused('reviews', 'rv-bad', { comment: '' }, 'comment');
    await refused('reviews', 'rv-bad', { approved: 'yes' }, 'approved');
    await refused('reviews', 'rv-bad', { name: '' }, 'name');
    await accepted('signs', 'SG-push', { id: 'SG-push', title: '御見積書', client: 'F社', email: '', amount: 1500, bodyHtml: '<p>見積</p>', status: 'pending', signedName: null, signedAt: null, created: 1 });
    await accepted('reviews', 'rv-push', { id: 'rv-push', name: '匿名', company: '', rating: 4, nps: 8, comment: '丁寧でした', approved: true, created: 1 });
    expect((await get<{ signs: { id: string }[] }>('/api/signs')).signs.some((s) => s.id === 'SG-push')).toBe(true);
    expect((await get<{ reviews: { id: string }[] }>('/api/reviews')).reviews.some((r) => r.id === 'rv-push')).toBe(true);
  });

  it('event registrations and A/B counters: unknown events, keys that are not the event and address, counters the route would not count', async () => {
    const reg = { id: 'ev-mdm:reg@example.jp', event: 'ev-mdm', email: 'Reg@example.jp', name: '参加者', company: '', created: 1 };
    await refused('eventRegs', 'ev-x:reg@example.jp', { ...reg, id: 'ev-x:reg@example.jp', event: 'ev-x' }, 'event');
    await refused('eventRegs', 'ev-mdm:other@example.jp', { ...reg, id: 'ev-mdm:other@example.jp' }, 'id');
    await refused('eventRegs', 'seat-1', { id: 'seat-1', event: 'ev-mdm', email: 'seat@example.jp' }, 'id');
    await refused('eventRegs', 'ev-mdm:x@', { id: 'ev-mdm:x@', event: 'ev-mdm', email: 'x@' }, 'email');
    await refused('eventRegs', 'ev-mdm:reg@example.jp', { name: 'n'.repeat(121) }, 'name');
    await refused('eventRegs', 'ev-mdm:reg@example.jp', { event: 'ev-ai' }, 'id');
    await refused('eventRegs', 'ev-mdm:reg@example.jp', { email: 'other@example.jp' }, 'id');
    await refused('eventRegs', 'ev-mdm:REG@example.jp', { name: '大文字' }, 'id');
    await refused('eventRegs', 'ev-mdm:reg@example.jp', { seats: 100 }, 'seats');
    await refused('abStats', 'stats', { id: 'stats', a_view: -1 }, 'a_view');
    await refused('abStats', 'stats', { b_convert: 2.5 }, 'b_convert');
    await refused('abStats', 'stats', { c_view: 1 }, 'c_view');
    await refused('abStats', 'other', { id: 'other', a_view: 1 }, 'id');
    await accepted('eventRegs', reg.id, reg);
    await accepted('abStats', 'stats', { id: 'stats', a_view: 10, a_convert: 2, b_view: 12, b_convert: 3 });
    const { stats } = await get<{ stats: { a: { view: number }; b: { convert: number } } }>('/api/ab');
    expect(stats.a.view).toBe(10);
    expect(stats.b.convert).toBe(3);
    const { events } = (await h.server.client().get<{ events: { id: string; seats: number }[] }>('/api/events', h.owner.auth)).body;
    expect(events.find((e) => e.id === 'ev-mdm')?.seats).toBe(99);
  });
});

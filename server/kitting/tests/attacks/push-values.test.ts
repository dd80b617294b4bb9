/**
 * Pushed values the routes would refuse, in collections whose routes read their bodies with their own
 * rules (invoices, quotes, portals, settings): each is refused with 422 invalid_field and nothing of the batch
 * is stored, while the same records with values the routes would store go through.
 */
import { describe, expect, it } from 'vitest';
import { addMember, benchPusher, grantNumbers, pushHarness, signUp } from './helpers.testkit';

const h = pushHarness('push-values@example.jp', 'bench-values');
const { push, refused } = h;

describe('pushes into invoices, quotes, portals and settings pass the routes’ rules', () => {
  it('quotes: a negative unit price, a cost rate over 100, an unknown pattern, lines that are not lines', async () => {
    const line = { n: '作業費', q: 10, p: 3000, d: '' };
    await refused('quotes', 'Q-2611-900', { id: 'Q-2611-900', cust: 'A社', ini: [{ ...line, p: -3000 }], run: [] }, 'ini');
    await refused('quotes', 'Q-2611-901', { costRate: 250 }, 'costRate');
    await refused('quotes', 'Q-2611-902', { pattern: 'Z' }, 'pattern');
    await refused('quotes', 'Q-2611-903', { run: 'free' }, 'run');
    await refused('quotes', 'Q-2611-904', { qty: -4 }, 'qty');
    await refused('quoteDrafts', 'current', { ini: [{ ...line, q: 2.5 }] }, 'ini');
    const ok = await push([{ coll: 'quotes', id: 'Q-2611-905', fields: { id: 'Q-2611-905', custId: null, cust: 'A社', pattern: 'B', costRate: 45, qty: 10, ini: [line], run: [], signId: null, createdAt: 1, updatedAt: 1, issuedAt: null } }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('invoices: a negative or fractional amount, an impossible month, an unknown status, a non-text description', async () => {
    await refused('invoices', 'INV-2611-900', { id: 'INV-2611-900', cust: 'A社', amount: -5000, month: '2611', status: 'draft' }, 'amount');
    await refused('invoices', 'INV-2611-901', { amount: 1000.4 }, 'amount');
    await refused('invoices', 'INV-2611-902', { month: '2613' }, 'month');
    await refused('invoices', 'INV-2611-903', { status: 'void' }, 'status');
    await refused('invoices', 'INV-2611-904', { desc: { html: '<b>' } }, 'desc');
    await refused('invoices', 'INV-2611-905', { cust: '' }, 'cust');
    await refused('invoices', 'INV-2611-906', { paidBy: 'anyone' }, 'paidBy');
    const ok = await push([{ coll: 'invoices', id: 'INV-2611-907', fields: { id: 'INV-2611-907', cust: 'A社', month: '2611', desc: '保守', amount: 12000, due: '2026-12-31', status: 'draft', recurring: false, created: 1, updated: 1 } }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('dock reservations and capacity load: a duration the route would clamp, a quantity that is not a number', async () => {
    await refused('dockReservations', 'RV-0900', { id: 'RV-0900', dur: 5000 }, 'dur');
    await refused('dockReservations', 'RV-0901', { cust: 'x'.repeat(121) }, 'cust');
    await refused('capacityLoad', 'LD-0900', { qty: 'many' }, 'qty');
    await refused('capacityLoad', 'LD-0901', { note: ['a'] }, 'note');
    expect((await push([{ coll: 'dockReservations', id: 'RV-0902', fields: { id: 'RV-0902', date: '2026-11-30', start: '10:00', dur: 90, cust: 'A社' } }])).status).toBe(200);
  });

  it('portals: a published flag that is not a boolean, an over-long label, a field portals do not have', async () => {
    await refused('portals', 'abc', { published: 'yes' }, 'published');
    await refused('portals', 'abc', { last: 'x'.repeat(41) }, 'last');
    await refused('portals', 'abc', { owner: 'attacker' }, 'owner');
    expect((await push([{ coll: 'portals', id: 'abc', fields: { published: false, last: '昨日' } }])).status).toBe(200);
  });

  it('settings: a company field that is not text, a logo that is not an image data URL, an unknown plan, ui state of objects', async () => {
    await refused('settings', 'company', { name: { first: 'x' } }, 'name');
    await refused('settings', 'company', { tel: 'x'.repeat(301) }, 'tel');
    await refused('settings', 'company', { logo: 'javascript:alert(1)' }, 'logo');
    await refused('settings', 'prefs', { emailNotify: 'off' }, 'emailNotify');
    await refused('settings', 'teamPlan', { planKey: 'unlimited' }, 'planKey');
    await refused('settings', 'ui', { state: { tab: { nested: true } } }, 'state');
    const company = (await h.owner.c.get<{ company: { name: string } }>('/api/settings/company', h.owner.auth)).body.company;
    expect(typeof company.name).toBe('string');
    expect((await push([{ coll: 'settings', id: 'company', fields: { name: '作業台から更新', logo: '' } }])).status).toBe(200);
    expect((await h.owner.c.get<{ company: { name: string } }>('/api/settings/company', h.owner.auth)).body.company.name).toBe('作業台から更新');
  });
});

describe('a bench acts with the scopes of whoever enrolled it', () => {
  it("a member's bench writes the scopes the member may edit, nothing else", async () => {
    const o = await signUp(h.server, 'push-scopes@example.jp');
    // an admin enrols the bench (only owners and admins make enrolment codes), then becomes a member with scopes
    const m = await addMember(h.server, o.auth, 'push-scopes-member@example.jp', 'admin');
    const code = (await m.c.post<{ code: string }>('/api/sync/enrol-code', {}, m.auth)).body.code;
    const bench = 'bench-scopes';
    const r = await h.server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench, name: 'scopes' });
    expect(r.status).toBe(200);
    const demoted = await h.server.client().post(`/api/team/member/${m.memberId}`, { role: 'member', scopes: { sales: 'edit', ops: 'none', support: 'view', settings: 'view' } }, o.auth);
    expect(demoted.status, demoted.text).toBe(200);
    const pushAs = benchPusher(h.server, r.body.token, bench);
    const send = async (coll: string, id: string, fields: Record<string, unknown>) => {
      await grantNumbers(h.server, o.ws, bench, [{ coll, id }]);
      return pushAs([{ coll, id, fields }]);
    };
    // sales: edit (the same table the customer and invoice routes check)
    expect((await send('customers', 'cust-scoped', { id: 'cust-scoped', name: '営業の顧客' })).status).toBe(200);
    expect((await send('invoices', 'INV-2611-950', { id: 'INV-2611-950', cust: '営業の顧客', amount: 1000 })).status).toBe(200);
    // ops: none, support and settings unset (view): refused, nothing stored
    const before = await h.server.store.replica.lastSeq(o.ws);
    expect((await send('devices', '350000000000950', { imei: '350000000000950', model: 'iPhone' })).status).toBe(403);
    expect((await send('tickets', 'TK-950', { subject: '件名' })).status).toBe(403);
    expect((await send('settings', 'company', { name: '乗っ取り' })).status).toBe(403);
    expect(await h.server.store.replica.lastSeq(o.ws)).toBe(before);
    // the same member through the routes: refused alike
    expect((await m.c.request('PUT', '/api/settings/company', { name: '乗っ取り' }, m.auth)).status).toBe(403);
  });
});

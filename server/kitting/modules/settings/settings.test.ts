import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Company = Record<string, string>;

describe('company profile', () => {
  it('answers the seeded profile with every field', async () => {
    const res = await server.client().get<{ ok: boolean; company: Company }>('/api/settings/company');
    expect(res.body.ok).toBe(true);
    expect(Object.keys(res.body.company).sort()).toEqual(['addr', 'bank', 'brand', 'closedDates', 'email', 'holidays', 'logo', 'name', 'quoteValidDays', 'regno', 'rep', 'taxBasis', 'tel', 'web', 'workdays']);
    // Document and calendar settings start at their defaults.
    expect(res.body.company).toMatchObject({ taxBasis: '税抜', quoteValidDays: 30, workdays: [1, 2, 3, 4, 5], holidays: true, closedDates: [] });
    expect(res.body.company.name).toBe('株式会社キッティングステーション');
  });

  it('merges fields, clips to 300 and keeps the others', async () => {
    const api = server.client();
    const res = await api.put<{ company: Company }>('/api/settings/company', { tel: '03-1111-2222', addr: 'A'.repeat(400) });
    expect(res.body.company.tel).toBe('03-1111-2222');
    expect(res.body.company.addr).toHaveLength(300);
    expect(res.body.company.name).toBe('株式会社キッティングステーション');
    expect((await api.get<{ company: Company }>('/api/settings/company')).body.company.tel).toBe('03-1111-2222');
  });

  it('stores a logo data URL and refuses a non-image or one over 6 MB', async () => {
    const api = server.client();
    const logo = `data:image/png;base64,${'A'.repeat(1000)}`;
    expect((await api.put<{ company: Company }>('/api/settings/company', { logo })).body.company.logo).toBe(logo);
    const bad = await api.put('/api/settings/company', { logo: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid logo');
    const big = await api.put('/api/settings/company', { logo: `data:image/png;base64,${'A'.repeat(6 * 1024 * 1024)}`, tel: '099' });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('logo too large');
    const now = (await api.get<{ company: Company }>('/api/settings/company')).body.company;
    expect(now.logo).toBe(logo);
    expect(now.tel).not.toBe('099');
  });

  it('refuses object values with 400', async () => {
    const res = await server.client().put('/api/settings/company', { name: { x: 1 } });
    expect(res.status).toBe(400);
  });
});

describe('notification prefs', () => {
  it('defaults, merges and coerces to bool', async () => {
    const api = server.client();
    expect((await api.get<{ prefs: unknown }>('/api/settings/prefs')).body.prefs).toEqual({ emailNotify: true, slaAlert: true });
    expect((await api.put<{ prefs: unknown }>('/api/settings/prefs', { emailNotify: 0 })).body.prefs).toEqual({ emailNotify: false, slaAlert: true });
    expect((await api.put<{ prefs: unknown }>('/api/settings/prefs', { slaAlert: 'false', emailNotify: 'true' })).body.prefs).toEqual({ emailNotify: true, slaAlert: false });
    expect((await api.get<{ prefs: unknown }>('/api/settings/prefs')).body.prefs).toEqual({ emailNotify: true, slaAlert: false });
    // a non-empty string reads as true
    expect((await api.put<{ prefs: unknown }>('/api/settings/prefs', { slaAlert: 'yes' })).body.prefs).toEqual({ emailNotify: true, slaAlert: true });
    expect((await api.get<{ prefs: unknown }>('/api/settings/prefs')).body.prefs).toEqual({ emailNotify: true, slaAlert: true });
    expect((await api.put<{ prefs: unknown }>('/api/settings/prefs', { emailNotify: 'on', slaAlert: 'off' })).body.prefs).toEqual({ emailNotify: true, slaAlert: false });
    expect((await api.put<{ prefs: unknown }>('/api/settings/prefs', { emailNotify: '', slaAlert: 2 })).body.prefs).toEqual({ emailNotify: false, slaAlert: true });
  });
});

describe('UI state', () => {
  it('stores only string values, null deletes a key, answers keys and size', async () => {
    const api = server.client();
    const res = await api.put<{ keys: number; size: number }>('/api/settings/ui', { state: { tab: 'devices', n: 5, obj: { a: 1 }, theme: 'dark' } });
    expect(res.body.keys).toBe(2);
    expect(res.body.size).toBe(Buffer.byteLength(JSON.stringify({ tab: 'devices', theme: 'dark' })));
    await api.put('/api/settings/ui', { state: { theme: null, lang: 'ja' } });
    expect((await api.get<{ state: unknown }>('/api/settings/ui')).body.state).toEqual({ tab: 'devices', lang: 'ja' });
  });

  it('refuses a document over 512 KB and keeps the old state', async () => {
    const api = server.client();
    await api.put('/api/settings/ui', { state: { a: 'x'.repeat(300 * 1024) } });
    const res = await api.put('/api/settings/ui', { state: { b: 'y'.repeat(300 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ui state too large');
    const state = (await api.get<{ state: Record<string, string> }>('/api/settings/ui')).body.state;
    expect(Object.keys(state)).toEqual(['a']);
  });

  it('answers 400 without a state object', async () => {
    const res = await server.client().put('/api/settings/ui', { state: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('state required');
  });
});

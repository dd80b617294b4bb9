import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Deal {
  id: string;
  dir: string;
  partner: string;
  kind: string;
  units: number;
  period: string;
  rate: number;
  status: string;
}

describe('network deals', () => {
  it('creates deals with defaults, status by dir, newest first', async () => {
    const api = server.client();
    const a = await api.post<{ deal: Deal; deals: Deal[] }>('/api/network/deal', { units: 50 });
    expect(a.body.deal).toMatchObject({ dir: 'provide', partner: 'ネットワーク公開', kind: 'キッティング枠', period: '—', rate: 0, status: '募集中', units: 50 });
    const b = await api.post<{ deal: Deal; deals: Deal[] }>('/api/network/deal', { units: '20', dir: 'accept', rate: 1800 });
    expect(b.body.deal).toMatchObject({ dir: 'accept', status: '対応中', rate: 1800, units: 20 });
    const c = await api.post<{ deal: Deal; deals: Deal[] }>('/api/network/deal', { units: 5, dir: 'request', partner: 'P'.repeat(200), status: '交渉中' });
    expect(c.body.deal).toMatchObject({ dir: 'request', status: '交渉中' });
    expect(c.body.deal.partner).toHaveLength(120);
    expect((await api.post<{ deal: Deal }>('/api/network/deal', { units: 1, dir: 'sideways' })).body.deal.dir).toBe('provide');
    const list = await api.get<{ deals: Deal[] }>('/api/network/deals');
    expect(list.body.deals).toHaveLength(4);
    expect(list.body.deals[1].id).toBe(c.body.deal.id);
    expect(list.body.deals[3].id).toBe(a.body.deal.id);
  });

  it('answers 400 unless units is an integer > 0, storing nothing', async () => {
    const api = server.client();
    for (const units of [undefined, 0, -3, 2.5, 'abc']) {
      const res = await api.post('/api/network/deal', { units });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('units required');
    }
    expect((await api.get<{ deals: Deal[] }>('/api/network/deals')).body.deals).toEqual([]);
  });
});

describe('network centers', () => {
  it('lists the 5 seeded centers, creates, updates by id and deletes', async () => {
    const api = server.client();
    expect((await api.get<{ centers: unknown[] }>('/api/network/centers')).body.centers).toHaveLength(5);
    const created = await api.post<{ center: { id: string; name: string; region: string; mdm: string[] }; centers: unknown[] }>('/api/network/center', { name: '札幌センター', mdm: ['Intune'], slots: 80 });
    expect(created.body.center.id).toMatch(/^c-/);
    expect(created.body.center).toMatchObject({ name: '札幌センター', region: '—', mdm: ['Intune'], slots: 80 });
    expect(created.body.centers).toHaveLength(6);
    const upd = await api.post<{ center: { id: string; region: string; name: string }; centers: unknown[] }>('/api/network/center', { id: created.body.center.id, region: '北海道' });
    expect(upd.body.center).toMatchObject({ id: created.body.center.id, name: '札幌センター', region: '北海道' });
    expect(upd.body.centers).toHaveLength(6);
    const del = await api.post<{ id: string; centers: unknown[] }>(`/api/network/center/${created.body.center.id}/delete`);
    expect(del.body.centers).toHaveLength(5);
    expect((await api.post(`/api/network/center/${created.body.center.id}/delete`)).status).toBe(404);
  });

  it('requires a name for a new center and refuses negative numbers', async () => {
    const api = server.client();
    expect((await api.post('/api/network/center', { region: '九州' })).body.error).toBe('name required');
    expect((await api.post('/api/network/center', { name: 'X', slots: -1 })).status).toBe(400);
  });
});

describe('OEM config', () => {
  it('overwrites with clips and plan seat|rev', async () => {
    const api = server.client();
    expect((await api.get<{ oem: unknown }>('/api/network/oem')).body.oem).toEqual({ brand: '', logo: '', domain: '', plan: 'seat' });
    const res = await api.post<{ oem: Record<string, string> }>('/api/network/oem', { brand: 'B'.repeat(30), logo: 'KSX', domain: 'd'.repeat(60), plan: 'rev' });
    expect(res.body.oem.brand).toHaveLength(24);
    expect(res.body.oem.logo).toBe('KS');
    expect(res.body.oem.domain).toHaveLength(48);
    expect(res.body.oem.plan).toBe('rev');
    expect((await api.post<{ oem: Record<string, string> }>('/api/network/oem', { brand: 'x', plan: 'gold' })).body.oem).toEqual({ brand: 'x', logo: '', domain: '', plan: 'seat' });
    expect((await api.get<{ oem: Record<string, string> }>('/api/network/oem')).body.oem.brand).toBe('x');
  });
});

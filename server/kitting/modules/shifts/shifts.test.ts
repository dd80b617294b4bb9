import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { declaredCap } from '../../store/caps';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { HISTORY_MAX, SHIFT_HISTORY } from './shifts.service';

type Grid = Record<string, string[]>;
interface Draft {
  grid: Grid;
  diff: { staffId: string; day: number; from: string | null; to: string }[];
  ts: number;
  status: string;
}
interface Snapshot {
  id: string;
  ts: number;
  reason: string;
  grid: Grid;
}
interface ShiftsBody {
  ok: boolean;
  grid: Grid;
  clock: Record<string, { in: string | null; out: string | null; status: string; units: number }>;
  draft?: Draft;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

const week = (v: string) => Array(7).fill(v);

describe('GET /api/shifts', () => {
  it('answers the seeded roster (7 values per staff) and clock, no draft', async () => {
    const api = server.client();
    const res = await api.get<ShiftsBody>('/api/shifts');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.grid)).toHaveLength(6);
    for (const row of Object.values(res.body.grid)) {
      expect(row).toHaveLength(7);
      for (const v of row) expect(['day', 'late', 'night', 'disp', 'off']).toContain(v);
    }
    expect(res.body.clock).toEqual({});
    expect(res.body.draft).toBeUndefined();
  });
});

describe('POST /api/shifts', () => {
  it('saves grid and clock', async () => {
    const api = server.client();
    const res = await api.post<ShiftsBody>('/api/shifts', { grid: { 'st-01': week('late') }, clock: { 'st-01': { in: '09:00', out: null, status: 'in', units: 12 } } });
    expect(res.body.grid).toEqual({ 'st-01': week('late') });
    expect(res.body.clock['st-01']).toEqual({ in: '09:00', out: null, status: 'in', units: 12 });
    expect((await api.get<ShiftsBody>('/api/shifts')).body.grid).toEqual({ 'st-01': week('late') });
  });

  it('answers 400 grid required when no row reads as 7 days', async () => {
    const api = server.client();
    for (const body of [{}, { grid: 'x' }, { grid: { 'st-01': ['day'] } }, { grid: [] }]) {
      const res = await api.post('/api/shifts', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, error: 'grid required' });
    }
  });
});

describe('shift draft', () => {
  it('stages a draft with a diff, unknown values as off, and leaves the roster unchanged', async () => {
    const api = server.client();
    const before = (await api.get<ShiftsBody>('/api/shifts')).body.grid;
    const res = await api.post<{ draft: Draft }>('/api/shifts/draft', { grid: { 'st-01': ['night', 'day', 'day', 'day', 'day', 'holiday', 'off'] } });
    expect(res.status).toBe(200);
    const d = res.body.draft;
    expect(d.status).toBe('unconfirmed');
    expect(d.grid['st-01']).toEqual(['night', 'day', 'day', 'day', 'day', 'off', 'off']);
    expect(d.grid['st-02']).toEqual(before['st-02']);
    expect(d.diff).toEqual([{ staffId: 'st-01', day: 0, from: 'day', to: 'night' }]);
    const now = await api.get<ShiftsBody>('/api/shifts');
    expect(now.body.grid).toEqual(before);
    expect(now.body.draft?.diff).toEqual(d.diff);
  });

  it('answers 400 grid required for a draft without a 7-day row', async () => {
    const api = server.client();
    const res = await api.post('/api/shifts/draft', { grid: { 'st-01': ['day', 'day'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('grid required');
  });

  it('applies: prior roster to history with reason 適用前のシフト and a restoreId', async () => {
    const api = server.client();
    const before = (await api.get<ShiftsBody>('/api/shifts')).body.grid;
    await api.post('/api/shifts/draft', { grid: { 'st-02': week('night') } });
    const res = await api.post<{ grid: Grid; applied: { ts: number; diff: unknown[]; restoreId: string }; history: Snapshot[] }>('/api/shifts/draft/apply');
    expect(res.status).toBe(200);
    expect(res.body.grid['st-02']).toEqual(week('night'));
    expect(res.body.applied.diff.length).toBeGreaterThan(0);
    expect(res.body.history[0]).toMatchObject({ id: res.body.applied.restoreId, reason: '適用前のシフト', grid: before });
    const after = await api.get<ShiftsBody>('/api/shifts');
    expect(after.body.grid['st-02']).toEqual(week('night'));
    expect(after.body.draft).toBeUndefined();
    const again = await api.post('/api/shifts/draft/apply');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ ok: false, error: 'no draft' });
  });

  it('replaces an earlier draft', async () => {
    const api = server.client();
    await api.post('/api/shifts/draft', { grid: { 'st-01': week('late') } });
    await api.post('/api/shifts/draft', { grid: { 'st-03': week('disp') } });
    const res = await api.post<{ grid: Grid }>('/api/shifts/draft/apply');
    expect(res.body.grid['st-03']).toEqual(week('disp'));
    expect(res.body.grid['st-01']).not.toEqual(week('late'));
  });

  it('discards: true with a draft, false without, roster unchanged', async () => {
    const api = server.client();
    const before = (await api.get<ShiftsBody>('/api/shifts')).body.grid;
    await api.post('/api/shifts/draft', { grid: { 'st-01': week('night') } });
    expect((await api.post('/api/shifts/draft/discard')).body).toEqual({ ok: true, discarded: true, grid: before });
    expect((await api.post('/api/shifts/draft/discard')).body).toEqual({ ok: true, discarded: false, grid: before });
    expect((await api.post('/api/shifts/draft/apply')).status).toBe(404);
  });

  it('expires after 12 hours', async () => {
    const api = server.client();
    await api.post('/api/shifts/draft', { grid: { 'st-01': week('night') } });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 12 * 3_600_000 + 60_000);
    expect((await api.get<ShiftsBody>('/api/shifts')).body.draft).toBeUndefined();
    const res = await api.post('/api/shifts/draft/apply');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('no draft');
  });
});

describe('shift history and restore', () => {
  it('declares the history cap of 20, so every replica trims snapshots that arrive from elsewhere', () => {
    expect(declaredCap(SHIFT_HISTORY)).toBe(HISTORY_MAX);
    expect(HISTORY_MAX).toBe(20);
  });

  it('keeps the 20 newest snapshots, newest first', async () => {
    const api = server.client();
    for (let i = 0; i < 23; i++) {
      await api.post('/api/shifts/draft', { grid: { 'st-01': week(i % 2 ? 'day' : 'late') } });
      await api.post('/api/shifts/draft/apply');
    }
    const res = await api.get<{ history: Snapshot[] }>('/api/shifts/history');
    expect(res.body.history).toHaveLength(20);
    const ts = res.body.history.map((h) => h.ts);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    // the newest snapshot is the roster before the last apply (i = 22), i.e. the i = 21 week
    expect(res.body.history[0].grid['st-01']).toEqual(week('day'));
    expect(res.body.history[1].grid['st-01']).toEqual(week('late'));
  });

  it('restores a snapshot: current roster pushed first (復元前のシフト), draft invalidated', async () => {
    const api = server.client();
    const original = (await api.get<ShiftsBody>('/api/shifts')).body.grid;
    await api.post('/api/shifts/draft', { grid: { 'st-04': week('night') } });
    const applied = await api.post<{ applied: { restoreId: string }; grid: Grid }>('/api/shifts/draft/apply');
    await api.post('/api/shifts/draft', { grid: { 'st-05': week('day') } });
    const res = await api.post<{ grid: Grid; restored: { id: string }; history: Snapshot[] }>(`/api/shifts/restore/${applied.body.applied.restoreId}`);
    expect(res.status).toBe(200);
    expect(res.body.grid).toEqual(original);
    expect(res.body.restored.id).toBe(applied.body.applied.restoreId);
    expect(res.body.history[0]).toMatchObject({ reason: '復元前のシフト', grid: applied.body.grid });
    const now = await api.get<ShiftsBody>('/api/shifts');
    expect(now.body.grid).toEqual(original);
    expect(now.body.draft).toBeUndefined();
    expect((await api.post('/api/shifts/draft/apply')).status).toBe(404);
  });

  it('answers 404 unknown snapshot', async () => {
    const api = server.client();
    const res = await api.post('/api/shifts/restore/snap-99999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'unknown snapshot' });
  });
});

describe('staff', () => {
  it('lists the seeded staff', async () => {
    const res = await server.client().get<{ staff: { id: string; name: string; type: string }[] }>('/api/staff');
    expect(res.body.staff).toHaveLength(6);
    expect(res.body.staff[0]).toMatchObject({ id: 'st-01', type: 'own' });
  });

  it('creates, updates and deletes a staff member; delete drops roster and clock rows', async () => {
    const api = server.client();
    const created = await api.post<{ staff: { id: string; name: string; type: string }; staffList: unknown[] }>('/api/staff', { name: '山田 花子', type: 'agency' });
    const { id } = created.body.staff;
    expect(created.body.staff).toMatchObject({ name: '山田 花子', type: 'agency' });
    expect(created.body.staffList).toHaveLength(7);
    expect((await api.post<{ staff: { type: string } }>('/api/staff', { name: 'X' })).body.staff.type).toBe('own');
    expect((await api.post<{ staff: { name: string; type: string } }>(`/api/staff/${id}`, { name: '山田 花', type: 'own' })).body.staff).toMatchObject({ id, name: '山田 花', type: 'own' });
    await api.post('/api/shifts', { grid: { [id]: week('day'), 'st-01': week('day') } });
    await api.post(`/api/timeclock/${id}/punch`, { dir: 'in' });
    const del = await api.post<{ id: string; staffList: { id: string }[] }>(`/api/staff/${id}/delete`);
    expect(del.body.id).toBe(id);
    expect(del.body.staffList.some((s) => s.id === id)).toBe(false);
    const shifts = await api.get<ShiftsBody>('/api/shifts');
    expect(shifts.body.grid[id]).toBeUndefined();
    expect(shifts.body.clock[id]).toBeUndefined();
    expect(shifts.body.grid['st-01']).toEqual(week('day'));
    expect((await api.post(`/api/staff/${id}/delete`)).status).toBe(404);
    expect((await api.post(`/api/staff/${id}`, { name: 'x' })).status).toBe(404);
  });

  it('refuses a type other than own or agency (400) and never changes the stored type', async () => {
    const api = server.client();
    const before = (await api.get<{ staff: unknown[] }>('/api/staff')).body.staff.length;
    const bad = await api.post('/api/staff', { name: 'X', type: 'temp' });
    expect(bad.status).toBe(400);
    expect((await api.get<{ staff: unknown[] }>('/api/staff')).body.staff).toHaveLength(before);
    const res = await api.post('/api/staff/st-05', { type: 'bogus' });
    expect(res.status).toBe(400);
    const st05 = (await api.get<{ staff: { id: string; type: string }[] }>('/api/staff')).body.staff.find((s) => s.id === 'st-05');
    expect(st05?.type).toBe('agency');
  });

  it('requires a name', async () => {
    const res = await server.client().post('/api/staff', { name: '  ', type: 'own' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name required');
  });
});

describe('POST /api/timeclock/{staffId}/punch', () => {
  it('punches in and out by dir and toggles when dir is omitted or invalid', async () => {
    const api = server.client();
    const a = await api.post<{ staffId: string; row: { in: string; out: string | null; status: string; units: number } }>('/api/timeclock/st-02/punch', { dir: 'in' });
    expect(a.body.staffId).toBe('st-02');
    expect(a.body.row).toMatchObject({ out: null, status: 'in', units: 0 });
    expect(a.body.row.in).toMatch(/^\d{2}:\d{2}$/);
    const b = await api.post<{ row: { in: string; out: string; status: string } }>('/api/timeclock/st-02/punch', {});
    expect(b.body.row).toMatchObject({ in: a.body.row.in, status: 'out' });
    expect(b.body.row.out).toMatch(/^\d{2}:\d{2}$/);
    const c = await api.post<{ row: { status: string } }>('/api/timeclock/st-02/punch', { dir: 'sideways' });
    expect(c.body.row.status).toBe('in');
    const before = (await api.get<ShiftsBody>('/api/shifts')).body.clock['st-02'];
    // A second 出勤 while clocked in is refused and changes nothing.
    const d = await api.post<{ error: string; message: string }>('/api/timeclock/st-02/punch', { dir: 'in' });
    expect(d.status).toBe(409);
    expect(d.body.error).toBe('already clocked in');
    expect(d.body.message).toContain('すでに出勤中です');
    expect((await api.get<ShiftsBody>('/api/shifts')).body.clock['st-02']).toEqual(before);
  });

  it('refuses 退勤 without 出勤 with 409 and stores nothing; after 退勤 a second 退勤 is refused too', async () => {
    const api = server.client();
    const res = await api.post<{ error: string; message: string }>('/api/timeclock/st-03/punch', { dir: 'out' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('not clocked in');
    expect(res.body.message).toContain('出勤の打刻がないため退勤できません');
    expect((await api.get<ShiftsBody>('/api/shifts')).body.clock['st-03']).toBeUndefined();
    expect((await api.post('/api/timeclock/st-03/punch', { dir: 'in' })).status).toBe(200);
    expect((await api.post('/api/timeclock/st-03/punch', { dir: 'out' })).status).toBe(200);
    expect((await api.post('/api/timeclock/st-03/punch', { dir: 'out' })).status).toBe(409);
  });

  it('refuses an unknown staff id with 404 and stores nothing', async () => {
    const api = server.client();
    const res = await api.post('/api/timeclock/st-99/punch', { dir: 'in' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'staff not found' });
    expect((await api.get<ShiftsBody>('/api/shifts')).body.clock).toEqual({});
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jstMonth, jstStamp } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { readSeed } from '../../store/seed';
import { daysSince, shiftText } from '../../store/seed-dates';
import { SEEDS_AS_OF } from '../seeds';

let server: TestServer;
/** The demo audit log's months as seeded today (demo dates move with the calendar). */
let seededMonths: string[] = [];
beforeAll(async () => {
  const days = daysSince(SEEDS_AS_OF, Date.now());
  server = await startTestServer();
  seededMonths = readSeed('audit-log.json').map((r) => shiftText(String(r.ts), days, SEEDS_AS_OF).slice(0, 7));
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

type Issue = { code: string; message: string };

describe('GET /api/compliance', () => {
  it('answers the four control sets and the CAPA list', async () => {
    const res = await server.client().get<{ controls: Record<string, boolean[]>; capa: { id: string; state: string }[] }>('/api/compliance');
    expect(Object.keys(res.body.controls).sort()).toEqual(['appi', 'isms', 'pmark', 'soc2']);
    expect(res.body.capa.length).toBe(3);
  });
});

describe('PUT /api/compliance/controls/{key}', () => {
  it('stores bools and keeps the first 100', async () => {
    const api = server.client();
    const res = await api.put<{ key: string; controls: boolean[] }>('/api/compliance/controls/soc2', { controls: [...Array(150).fill(true), false] });
    expect(res.body.key).toBe('soc2');
    expect(res.body.controls).toHaveLength(100);
    const c = (await api.get<{ controls: Record<string, boolean[]> }>('/api/compliance')).body.controls;
    expect(c.soc2).toHaveLength(100);
    expect(c.isms.length).toBeGreaterThan(0);
  });

  it('answers 400 for an unknown key or missing controls', async () => {
    const api = server.client();
    expect((await api.put('/api/compliance/controls/iso9001', { controls: [true] })).status).toBe(400);
    const res = await api.put('/api/compliance/controls/isms', {});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('controls required');
  });

  it('refuses entries that are not true/false and keeps the stored set', async () => {
    const api = server.client();
    const before = (await api.get<{ controls: Record<string, boolean[]> }>('/api/compliance')).body.controls.pmark;
    for (const controls of [[true, 'yes'], [1, 0], [true, null]]) {
      const res = await api.put('/api/compliance/controls/pmark', { controls });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('controls required');
    }
    expect((await api.get<{ controls: Record<string, boolean[]> }>('/api/compliance')).body.controls.pmark).toEqual(before);
  });
});

describe('POST /api/compliance/capa/{id}', () => {
  it('updates the state (clip 20) and refuses a blank one', async () => {
    const api = server.client();
    const res = await api.post<{ capa: { id: string; state: string } }>('/api/compliance/capa/CAPA-001', { state: '  是正済  ' });
    expect(res.body.capa).toMatchObject({ id: 'CAPA-001', state: '是正済' });
    expect((await api.post<{ capa: { state: string } }>('/api/compliance/capa/CAPA-001', { state: 'x'.repeat(30) })).body.capa.state).toHaveLength(20);
    const blank = await api.post('/api/compliance/capa/CAPA-001', { state: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('state required');
    expect((await api.post('/api/compliance/capa/CAPA-999', { state: '対応中' })).status).toBe(404);
  });
});

describe('audit log', () => {
  it('adds rows with the documented defaults, newest first, as arrays', async () => {
    const api = server.client();
    const res = await api.post<{ entry: string[] }>('/api/audit-log', { action: 'ログイン' });
    expect(res.body.entry).toHaveLength(6);
    const [ts, user, action, target, result, cat] = res.body.entry;
    expect(ts).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect([user, action, target, result, cat]).toEqual(['システム', 'ログイン', '—', '成功', 'audit']);
    await api.post('/api/audit-log', { action: '設定変更', user: '佐藤', target: '会社情報', result: '失敗', cat: 'settings' });
    const logs = (await api.get<{ logs: string[][] }>('/api/audit-log')).body.logs;
    expect(logs[0].slice(1)).toEqual(['佐藤', '設定変更', '会社情報', '失敗', 'settings']);
    expect(logs[1][2]).toBe('ログイン');
    expect(logs.length).toBe(6);
  });

  it('requires an action and clips it to 200', async () => {
    const api = server.client();
    const res = await api.post('/api/audit-log', { user: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('action required');
    expect((await api.post<{ entry: string[] }>('/api/audit-log', { action: 'a'.repeat(300) })).body.entry[2]).toHaveLength(200);
  });

  it('refuses a ts that is not YYYY-MM-DD HH:mm and stores nothing', async () => {
    const api = server.client();
    const count = async () => (await api.get<{ logs: string[][] }>('/api/audit-log')).body.logs.length;
    const before = await count();
    for (const ts of ['昨日', '2026-13-01 10:00', '2026-11-20T10:00:00Z']) {
      const res = await api.post('/api/audit-log', { action: 'x', ts });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid ts');
    }
    expect(await count()).toBe(before);
    const ok = await api.post<{ entry: string[] }>('/api/audit-log', { action: 'x', ts: '2026-11-20 10:00' });
    expect(ok.body.entry[0]).toBe('2026-11-20 10:00');
  });
});

describe('POST /api/compliance/report', () => {
  it('issues the report for the current month with count, byCat, CAPA, overdue and issuer', async () => {
    const api = server.client();
    await api.post('/api/audit-log', { action: 'A', cat: 'ops' });
    await api.post('/api/audit-log', { action: 'B', cat: 'ops' });
    await api.post('/api/audit-log', { action: 'C' });
    const month = jstMonth();
    const seededThisMonth = (await api.get<{ logs: string[][] }>('/api/audit-log')).body.logs.filter((r) => r[0].startsWith(month));
    const res = await api.post<{ doc: { month: string; count: number; byCat: Record<string, number>; capa: unknown[]; overdue: number; org: { regno: string; name: string }; issuedAt: number } }>('/api/compliance/report', { claim: { count: seededThisMonth.length } });
    expect(res.status).toBe(200);
    expect(res.body.doc.month).toBe(month);
    expect(res.body.doc.count).toBe(seededThisMonth.length);
    expect(res.body.doc.byCat.ops).toBeGreaterThanOrEqual(2);
    expect(res.body.doc.capa).toHaveLength(3);
    expect(res.body.doc.org).toMatchObject({ name: '株式会社キッティングステーション', regno: 'T1010401089234' });
    expect(typeof res.body.doc.overdue).toBe('number');
  });

  it('falls back to the newest month with records when the current month has none', async () => {
    const api = server.client();
    await api.get('/api/compliance'); // the workspace is seeded today; the report is asked for months later
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.now() + 100 * 86_400_000));
    const res = await api.post<{ doc: { month: string; count: number } }>('/api/compliance/report', {});
    const newest = [...seededMonths].sort().at(-1)!;
    expect(res.body.doc.month).toBe(newest);
    expect(res.body.doc.count).toBe(seededMonths.filter((m) => m === newest).length);
  });

  it('answers 422 for a malformed or future month and a disagreeing claim', async () => {
    const api = server.client();
    const cases: [unknown, string][] = [
      [{ month: '2026-13' }, 'month_malformed'],
      [{ month: '2999-01' }, 'month_future'],
      [{ claim: { count: 999 } }, 'claim_count_mismatch'],
    ];
    for (const [body, code] of cases) {
      const res = await api.post<{ ok: boolean; issues: Issue[]; month: string }>('/api/compliance/report', body);
      expect(res.status).toBe(422);
      expect(res.body.ok).toBe(false);
      expect(res.body.issues.map((i) => i.code)).toContain(code);
      expect(typeof res.body.month).toBe('string');
    }
  });

  it('answers 422 for a bad log timestamp, an invalid CAPA due date and a missing or malformed registration', async () => {
    const api = server.client();
    // a malformed timestamp can only arrive from elsewhere (sync, old data): the POST refuses it
    await api.get('/api/audit-log');
    await server.store.transact(await workspaceOf(api), (tx) => tx.put('auditLog', 'al-bad', { id: 'al-bad', seq: 9999, ts: '昨日', user: 'x', action: 'x', target: '—', result: '成功', cat: 'audit' }));
    let res = await api.post<{ issues: Issue[] }>('/api/compliance/report', {});
    expect(res.status).toBe(422);
    expect(res.body.issues.map((i) => i.code)).toContain('log_timestamp_invalid');

    const other = server.client();
    await other.put('/api/settings/company', { regno: 'T1234567890123' });
    res = await other.post<{ issues: Issue[] }>('/api/compliance/report', {});
    expect(res.body.issues.map((i) => i.code)).toEqual(['issuer_registration_invalid']);
    await other.put('/api/settings/company', { regno: '' });
    res = await other.post<{ issues: Issue[] }>('/api/compliance/report', {});
    expect(res.body.issues.map((i) => i.code)).toEqual(['issuer_registration_missing']);

    const third = server.client();
    await third.get('/api/compliance');
    await server.store.transact(await workspaceOf(third), (tx) => tx.patch('capa', 'CAPA-002', { due: '2026/12/25' }));
    res = await third.post<{ issues: Issue[] }>('/api/compliance/report', {});
    expect(res.body.issues.map((i) => i.code)).toEqual(['capa_due_invalid']);
  });
});

/** The workspace id behind a client's cookie (the signed kit_tid value starts with it). */
async function workspaceOf(client: ReturnType<TestServer['client']>): Promise<string> {
  const raw = decodeURIComponent(client.cookie('kit_tid') ?? '');
  const candidates = [raw, ...raw.split(/[.:]/)];
  for (const c of candidates) if (c && (await server.store.workspace(c))) return c;
  throw new Error(`no workspace for cookie ${raw}`);
}

describe('POST /api/compliance/custody', () => {
  const step = (over: Record<string, string> = {}) => ({ label: '回収', role: '配送', who: '佐藤', dt: '2026-11-20 10:00', state: '完了', sign: '佐藤', ...over });

  it('stores a complete record', async () => {
    const res = await server.client().post<{ record: { id: string; imei: string; steps: unknown[] } }>('/api/compliance/custody', {
      imei: '356938035643809',
      model: 'iPhone 15',
      cust: 'A社',
      steps: [step(), step({ label: '消去', dt: '2026-11-21 09:00' })],
    });
    expect(res.status).toBe(200);
    expect(res.body.record.steps).toHaveLength(2);
  });

  it('answers 422 with incomplete steps and draftable true when nothing is invalid', async () => {
    const res = await server.client().post<{ ok: boolean; issues: string[]; invalid: unknown[]; incomplete: { step: number }[]; draftable: boolean }>('/api/compliance/custody', {
      imei: '356938035643809',
      steps: [step(), step({ label: '消去', state: '作業中', sign: '(未署名)', dt: '2026-11-21 09:00' }), step({ label: '返却', state: '', sign: '—', dt: '' })],
    });
    expect(res.status).toBe(422);
    expect(res.body.ok).toBe(false);
    expect(res.body.invalid).toEqual([]);
    expect(res.body.incomplete.map((i) => i.step)).toEqual([1, 2]);
    expect(res.body.draftable).toBe(true);
    expect(res.body.issues.length).toBe(2);
  });

  it('answers 422 with draftable false when a step is invalid (confirmed but unsigned)', async () => {
    const res = await server.client().post<{ invalid: { step: number; code: string }[]; draftable: boolean }>('/api/compliance/custody', {
      imei: '356938035643809',
      steps: [step({ sign: '' })],
    });
    expect(res.status).toBe(422);
    expect(res.body.invalid.map((i) => i.code)).toEqual(['confirmed_unsigned']);
    expect(res.body.draftable).toBe(false);
  });

  it('refuses more than 50 steps', async () => {
    const res = await server.client().post('/api/compliance/custody', { imei: '356938035643809', steps: Array.from({ length: 51 }, () => step()) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('too many steps');
    const ok = await server.client().post('/api/compliance/custody', { imei: '356938035643809', steps: Array.from({ length: 50 }, () => step()) });
    expect(ok.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
let admin: Record<string, string>;
let sub: Record<string, string>;
let mine: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'master-pass', backupToken: 'backup-secret-token' } });
  const api = server.client();
  admin = { authorization: `Bearer ${(await api.post<{ token: string }>('/api/admin/login', { password: 'master-pass' })).body.token}` };
  mine = (await api.post<{ tenant: { id: string } }>('/api/admin/tenant', { name: 'Mine' }, admin)).body.tenant.id;
  other = (await api.post<{ tenant: { id: string } }>('/api/admin/tenant', { name: 'Other' }, admin)).body.tenant.id;
  await api.post('/api/admin/subadmin', { name: 'Sub', email: 'sub@example.jp', password: 'sub-pass-1', tenants: [mine], canDelete: true }, admin);
  await api.post('/api/admin/subadmin', { name: 'NoDel', email: 'nodel@example.jp', password: 'sub-pass-2', tenants: [mine] }, admin);
  sub = { authorization: `Bearer ${(await api.post<{ token: string }>('/api/subadmin/login', { email: ' SUB@example.jp ', password: 'sub-pass-1' })).body.token}` };
});
afterAll(() => server.close());

describe('sub-admin sign-in and scope', () => {
  it('logs in with lowercased email and refuses a wrong password', async () => {
    expect((await server.client().post('/api/subadmin/login', { email: 'sub@example.jp', password: 'nope' })).status).toBe(401);
    const me = await server.client().get<{ tenants: { id: string }[]; stats: Record<string, number> }>('/api/subadmin/me', sub);
    expect(me.body.tenants.map((t) => t.id)).toEqual([mine]);
    expect(me.body.stats.tenants).toBe(1);
  });

  it('gets 403 on an unassigned tenant, and its notes, files and backups', async () => {
    for (const path of [`/api/subadmin/tenant/${other}`, `/api/notes/${other}`, `/api/files/${other}`, `/api/backups/${other}`]) {
      expect((await server.client().get(path, sub)).status).toBe(403);
    }
    expect((await server.client().post(`/api/backup/${other}`, {}, sub)).status).toBe(403);
    expect((await server.client().post(`/api/subadmin/workspace/${other}/impersonate`, {}, sub)).status).toBe(403);
    expect((await server.client().get(`/api/subadmin/tenant/${mine}`, sub)).status).toBe(200);
  });

  it('can change only the email: core fields give 403', async () => {
    const ok = await server.client().post<{ tenant: Record<string, unknown> }>(`/api/subadmin/tenant/${mine}`, { email: 'ops@mine.jp' }, sub);
    expect(ok.body.tenant.email).toBe('ops@mine.jp');
    for (const f of [{ plan: 'Enterprise' }, { seats: 99 }, { mrr: 1 }, { status: 'active' }, { features: { x: true } }]) {
      expect((await server.client().post(`/api/subadmin/tenant/${mine}`, f, sub)).status).toBe(403);
    }
    expect((await server.client().post(`/api/subadmin/tenant/${mine}`, { email: 'x'.repeat(121) }, sub)).status).toBe(400);
  });

  it('a sub-admin changing its own password ends every earlier token of it', async () => {
    await server.client().post('/api/admin/subadmin', { name: 'Pw', email: 'pw@example.jp', password: 'old-pass-1', tenants: [mine] }, admin);
    const login = async (password: string) => (await server.client().post<{ token: string }>('/api/subadmin/login', { email: 'pw@example.jp', password })).body.token;
    const leaked = { authorization: `Bearer ${await login('old-pass-1')}` };
    const mineTok = { authorization: `Bearer ${await login('old-pass-1')}` };
    expect((await server.client().post('/api/subadmin/password', { current: 'old-pass-1', next: 'abc' }, mineTok)).status).toBe(400);
    expect((await server.client().post('/api/subadmin/password', { current: 'wrong', next: 'new-pass-1' }, mineTok)).status).toBe(401);
    expect((await server.client().post<Body>('/api/subadmin/password', { current: 'old-pass-1', next: 'new-pass-1' }, mineTok)).body).toEqual({ ok: true });
    expect((await server.client().get('/api/subadmin/me', leaked)).status).toBe(401);
    expect((await server.client().get('/api/subadmin/me', { authorization: `Bearer ${await login('new-pass-1')}` })).status).toBe(200);
    const pw = (await server.client().get<{ subadmins: { id: string; email: string }[] }>('/api/admin/subadmins', admin)).body.subadmins.find((x) => x.email === 'pw@example.jp');
    await server.client().post(`/api/admin/subadmin/${pw?.id}/delete`, {}, admin);
  });

  it('cannot use a sub-admin token on admin routes', async () => {
    expect((await server.client().get('/api/admin/tenants', sub)).status).toBe(401);
  });

  it('impersonation links say by=subadmin', async () => {
    const res = await server.client().post<{ url: string }>(`/api/subadmin/impersonate/${mine}`, {}, sub);
    expect(res.body.url).toContain('by=subadmin');
    expect(res.body.url).toContain('assist=');
  });
});

describe('delete request and confirm', () => {
  it('needs canDelete', async () => {
    const t = (await server.client().post<{ token: string }>('/api/subadmin/login', { email: 'nodel@example.jp', password: 'sub-pass-2' })).body.token;
    const res = await server.client().post<Body>('/api/subadmin/delete-request', { tenantId: mine, targetId: 'x' }, { authorization: `Bearer ${t}` });
    expect(res.status).toBe(403);
  });

  it('backs up first, deletes once, and refuses a replayed code', async () => {
    await server.client().post(`/api/subadmin/tenant/${mine}/client`, { client: '顧客Z' }, sub);
    const req = await server.client().post<{ requestId: string; demoCode: string; expiresInMin: number }>('/api/subadmin/delete-request', { tenantId: mine, targetType: 'client', targetId: '顧客Z' }, sub);
    expect(req.body.expiresInMin).toBe(10);
    expect(req.body.demoCode).toMatch(/^\d{6}$/);
    const wrong = req.body.demoCode === '000000' ? '111111' : '000000';
    expect((await server.client().post('/api/subadmin/delete-confirm', { requestId: req.body.requestId, code: wrong }, sub)).status).toBe(401);
    const before = (await server.client().get<{ backups: unknown[] }>(`/api/backups/${mine}`, sub)).body.backups.length;
    const ok = await server.client().post<Body>('/api/subadmin/delete-confirm', { requestId: req.body.requestId, code: req.body.demoCode }, sub);
    expect(ok.body).toEqual({ ok: true, targetType: 'client' });
    const after = await server.client().get<{ backups: { reason: string }[] }>(`/api/backups/${mine}`, sub);
    expect(after.body.backups.length).toBe(before + 1);
    expect(after.body.backups[0].reason).toBe('削除前の自動バックアップ');
    const t = await server.client().get<{ tenant: { clients: string[] } }>(`/api/subadmin/tenant/${mine}`, sub);
    expect(t.body.tenant.clients).not.toContain('顧客Z');
    const replay = await server.client().post('/api/subadmin/delete-confirm', { requestId: req.body.requestId, code: req.body.demoCode }, sub);
    expect(replay.status).toBe(404);
  });
});

describe('notes and files', () => {
  it('adds, completes and deletes notes; empty text 400', async () => {
    expect((await server.client().post<Body>(`/api/notes/${mine}`, { text: '   ' }, sub)).status).toBe(400);
    const n = await server.client().post<{ note: { id: string; text: string; by: string } }>(`/api/notes/${mine}`, { text: `  ${'あ'.repeat(700)} ` }, sub);
    expect(n.body.note.text).toHaveLength(600);
    expect(n.body.note.by).toBe('sub@example.jp');
    const d = await server.client().post<{ note: { done: boolean } }>(`/api/notes/${mine}/${n.body.note.id}`, { done: true }, sub);
    expect(d.body.note.done).toBe(true);
    expect((await server.client().post<Body>(`/api/notes/${mine}/${n.body.note.id}`, { del: true }, sub)).body).toEqual({ ok: true });
    expect((await server.client().get<{ notes: unknown[] }>(`/api/notes/${mine}`, sub)).body.notes).toHaveLength(0);
  });

  it('stores base64 files: empty 400, too large 413, metadata only in the list', async () => {
    expect((await server.client().post(`/api/files/${mine}`, { name: 'a.txt', data: '' }, sub)).status).toBe(400);
    expect((await server.client().post(`/api/files/${mine}`, { name: 'a.txt', data: 'A'.repeat(2_800_004) }, sub)).status).toBe(413);
    const data = Buffer.from('こんにちは').toString('base64');
    const f = await server.client().post<{ file: { id: string; size: number } }>(`/api/files/${mine}`, { name: 'a.txt', type: 'text/plain', data }, sub);
    expect(f.body.file.size).toBe(15);
    const list = await server.client().get<{ files: Record<string, unknown>[] }>(`/api/files/${mine}`, sub);
    expect(list.body.files[0].data).toBeUndefined();
    const dl = await server.client().get<{ data: string }>(`/api/files/${mine}/${f.body.file.id}/download`, sub);
    expect(dl.body.data).toBe(data);
    expect((await server.client().post(`/api/files/${mine}/${f.body.file.id}/delete`, {}, sub)).status).toBe(200);
    expect((await server.client().get(`/api/files/${mine}/${f.body.file.id}/download`, sub)).status).toBe(404);
  });
});

describe('backups, restore, export', () => {
  it('restores a snapshot after backing up the current state', async () => {
    await server.client().post(`/api/admin/tenant/${mine}`, { email: 'before@mine.jp' }, admin);
    const b = await server.client().post<{ backup: { id: string; reason: string; sites: number } }>(`/api/backup/${mine}`, {}, sub);
    expect(b.body.backup).toMatchObject({ reason: '手動バックアップ', sites: 0 });
    await server.client().post(`/api/admin/tenant/${mine}`, { email: 'after@mine.jp' }, admin);
    const r = await server.client().post<{ tenant: { email: string } }>(`/api/restore/${mine}/${b.body.backup.id}`, {}, sub);
    expect(r.body.tenant.email).toBe('before@mine.jp');
    const list = await server.client().get<{ backups: { reason: string }[] }>(`/api/backups/${mine}`, sub);
    expect(list.body.backups[0].reason).toBe('復元前の自動バックアップ');
    expect((await server.client().post(`/api/restore/${mine}/bk-nope`, {}, sub)).status).toBe(404);
  });

  it('a restore never takes over a site slug another tenant published since the backup', async () => {
    const assist = async (tid: string) => {
      const url = (await server.client().post<{ url: string }>(`/api/admin/workspace/${tid}/impersonate`, {}, admin)).body.url;
      return { authorization: `Bearer ${new URL(url, 'http://x').searchParams.get('assist')}` };
    };
    const asMine = await assist(mine);
    const asOther = await assist(other);
    expect((await server.client().post('/api/site/publish', { slug: 'promo-x', html: '<p>mine</p>' }, asMine)).status).toBe(200);
    const b = await server.client().post<{ backup: { id: string; sites: number } }>(`/api/backup/${mine}`, {}, sub);
    expect(b.body.backup.sites).toBe(1);
    await server.client().post('/api/site/promo-x/unpublish', {}, asMine);
    expect((await server.client().post('/api/site/publish', { slug: 'promo-x', html: '<p>other</p>' }, asOther)).status).toBe(200);
    expect((await server.client().post(`/api/restore/${mine}/${b.body.backup.id}`, {}, sub)).status).toBe(200);
    expect((await server.client().get('/site/promo-x')).text).toContain('<p>other</p>');
  });

  it('exports state only with the backup token, never secrets', async () => {
    expect((await server.client().get<Body>('/api/export/state')).body).toEqual({ ok: false, error: 'unauthorized' });
    expect((await server.client().get('/api/export/state?token=wrong')).status).toBe(401);
    const res = await server.client().get<Body>('/api/export/state', { 'x-backup-token': 'backup-secret-token' });
    expect(res.status).toBe(200);
    expect(res.body.counts).toMatchObject({ subadmins: 2 });
    expect(res.text).not.toMatch(/scrypt\$|pwHash|tokenVersion|backup-secret-token/);
  });
});

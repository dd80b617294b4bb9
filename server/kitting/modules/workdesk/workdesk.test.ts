import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Doc = Record<string, unknown>;
interface Thread {
  id: string;
  title: string;
  ts: number;
  msgs: { role: string; text?: string }[];
  created: number;
}

describe('workdesk docs', () => {
  it('creates with defaults, upserts by id and deletes', async () => {
    const api = server.client();
    const a = await api.post<{ doc: Doc }>('/api/workdesk/doc', { name: 'キッティング手順書.pdf', size: 20480 });
    expect(a.body.doc).toMatchObject({ name: 'キッティング手順書.pdf', type: 'FILE', size: 20480, status: '索引済' });
    const id = a.body.doc.id as string;
    const b = await api.post<{ doc: Doc }>('/api/workdesk/doc', { id, status: '処理中' });
    expect(b.body.doc).toMatchObject({ id, name: 'キッティング手順書.pdf', status: '処理中', created: a.body.doc.created });
    expect((await api.post<{ doc: Doc }>('/api/workdesk/doc', { name: 'n'.repeat(300) })).body.doc.name).toHaveLength(200);
    expect((await api.get<{ docs: Doc[] }>('/api/workdesk/docs')).body.docs).toHaveLength(2);
    expect((await api.post(`/api/workdesk/doc/${id}/delete`)).body).toEqual({ ok: true });
    expect((await api.post(`/api/workdesk/doc/${id}/delete`)).status).toBe(404);
  });

  it('refuses a date that is not a real YYYY-MM-DD date and stores nothing', async () => {
    const api = server.client();
    for (const date of ['2026-99-99', '2026-02-30', '11/23']) {
      const res = await api.post('/api/workdesk/doc', { name: 'x', date });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid date');
    }
    expect((await api.get<{ docs: Doc[] }>('/api/workdesk/docs')).body.docs).toEqual([]);
  });
});

describe('workdesk threads', () => {
  it('upserts threads, replaces msgs, appends and creates on append; newest first', async () => {
    const api = server.client();
    const t = await api.post<{ thread: Thread }>('/api/workdesk/thread', { ts: 1000, msgs: [{ role: 'user', text: 'こんにちは' }] });
    expect(t.body.thread.id).toMatch(/^thr-/);
    expect(t.body.thread.title).toBe('新しいチャット');
    const id = t.body.thread.id;
    const app1 = await api.post<{ thread: Thread }>(`/api/workdesk/thread/${id}`, { append: { role: 'assistant', text: 'ご用件をどうぞ' }, ts: 2000 });
    expect(app1.body.thread.msgs.map((m) => m.text)).toEqual(['こんにちは', 'ご用件をどうぞ']);
    const rep = await api.post<{ thread: Thread }>(`/api/workdesk/thread/${id}`, { msgs: [{ role: 'user', text: 'やり直し' }], title: '手順の質問' });
    expect(rep.body.thread.msgs).toEqual([{ role: 'user', text: 'やり直し' }]);
    expect(rep.body.thread.title).toBe('手順の質問');
    const created = await api.post<{ thread: Thread }>('/api/workdesk/thread/thr-new', { append: [{ role: 'user', text: '新規' }], ts: 500 });
    expect(created.body.thread).toMatchObject({ id: 'thr-new', title: '新しいチャット', msgs: [{ role: 'user', text: '新規' }] });
    expect((await api.post('/api/workdesk/thread/thr-missing', { title: 'x' })).status).toBe(404);
    const list = await api.get<{ threads: Thread[] }>('/api/workdesk/threads');
    expect(list.body.threads.map((x) => x.id)).toEqual([id, 'thr-new']);
  });
});

describe('workdesk connectors', () => {
  it('merges {id: bool} and {map}', async () => {
    const api = server.client();
    expect((await api.post<{ conn: Doc }>('/api/workdesk/conn', { drive: true })).body.conn).toEqual({ drive: true });
    expect((await api.post<{ conn: Doc }>('/api/workdesk/conn', { map: { slack: false, ['k'.repeat(50)]: true } })).body.conn).toEqual({ drive: true, slack: false, ['k'.repeat(40)]: true });
    expect((await api.get<{ conn: Doc }>('/api/workdesk/conn')).body.conn).toMatchObject({ drive: true, slack: false });
    expect((await api.post('/api/workdesk/conn', { drive: 'yes' })).status).toBe(400);
  });
});

describe('POST /api/workdesk/search', () => {
  it('matches docs and thread messages by text; no match gives no hits', async () => {
    const api = server.client();
    const d = (await api.post<{ doc: Doc }>('/api/workdesk/doc', { name: 'MDM登録手順.pdf', text: 'Apple Business Manager で端末を登録する' })).body.doc;
    await api.post('/api/workdesk/doc', { name: '請求書テンプレート.xlsx' });
    const t = (await api.post<{ thread: Thread }>('/api/workdesk/thread', { title: 'APNs証明書', msgs: [{ role: 'user', text: 'APNs証明書の更新期限はいつ？' }] })).body.thread;
    const a = await api.post<{ q: string; hits: { type: string; id: string; snippet: string }[]; indexed: number }>('/api/workdesk/search', { q: '登録' });
    expect(a.body.q).toBe('登録');
    expect(a.body.indexed).toBe(3);
    expect(a.body.hits.map((h) => h.id)).toEqual([d.id]);
    const b = await api.post<{ hits: { type: string; id: string }[] }>('/api/workdesk/search', { q: 'apns 更新' });
    expect(b.body.hits).toEqual([expect.objectContaining({ type: 'thread', id: t.id })]);
    const none = await api.post<{ hits: unknown[] }>('/api/workdesk/search', { q: '存在しない語句' });
    expect(none.body.hits).toEqual([]);
    expect((await api.post('/api/workdesk/search', { q: ' ' })).status).toBe(400);
  });
});

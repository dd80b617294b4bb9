import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
let token: string;
beforeAll(async () => {
  s = await startStudio();
  token = (await s.register('catalog@studio.test')).token;
});
afterAll(() => s.close());

interface Model {
  id: string;
  surface: string;
  price: number;
  settings: { name: string; type: string }[];
  media: { role: string; required: boolean }[];
}

describe('GET /api/hf/catalog, /api/hf/models, /api/hf/presets', () => {
  it('lists model ids with their declared settings and media roles, and presets that name catalog models', async () => {
    const cat = await s.call<{ models: Model[] }>('GET', '/api/hf/catalog', { auth: token });
    const ids = cat.body.models.map((m) => m.id);
    expect(cat.body.models.map((m) => m.surface).sort()).toEqual(['audio', 'image', 'image', 'video']);
    const video = cat.body.models.find((m) => m.surface === 'video')!;
    expect(video.price).toBe(120);
    expect(video.settings.map((x) => x.name).sort()).toEqual(['aspect_ratio', 'duration', 'resolution']);
    expect(cat.body.models.find((m) => m.id === 'studio/image-reference-v1')!.media).toEqual([{ role: 'reference_image', type: 'image', required: true }]);
    const models = await s.call<{ models: { id: string; price: number }[] }>('GET', '/api/hf/models', { auth: token });
    expect(models.body.models.map((m) => m.id)).toEqual(ids);
    const presets = await s.call<{ presets: { model: string }[] }>('GET', '/api/hf/presets', { auth: token });
    expect(presets.body.presets.length).toBeGreaterThan(0);
    for (const p of presets.body.presets) expect(ids).toContain(p.model);
  });

  it('refuses settings and media the model does not declare, before anything is stored or charged', async () => {
    const bad: Record<string, unknown>[] = [
      { model: 'studio/image-v1', prompt: 'x', settings: { duration: 5 } },
      { model: 'studio/image-v1', prompt: 'x', settings: { aspect_ratio: '2:1' } },
      { model: 'studio/frontier-video-v1', prompt: 'x', settings: { duration: 60 } },
      { model: 'studio/image-v1', prompt: 'x', media: { start_image: 'https://e.example/a.png' } },
      { model: 'studio/frontier-video-v1', prompt: 'x', media: { start_image: 'file:///etc/passwd' } },
      { model: 'studio/image-v1', prompt: '' },
      { model: 'studio/image-v1' },
    ];
    for (const body of bad) {
      const r = await s.call('POST', '/api/hf/generate', { auth: token, body });
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
    }
    expect(await s.get('SELECT COUNT(*) AS n FROM jobs')).toEqual({ n: 0 });
    expect(await s.get('SELECT COUNT(*) AS n FROM credit_ledger')).toEqual({ n: 0 });
  });
});

describe('posts and request bodies', () => {
  it('creates a post with an optional schedule, refuses a bad one, and refuses bodies that are not JSON (415)', async () => {
    const ok = await s.call<{ post: { id: string; scheduled_at: string | null } }>('POST', '/api/posts', {
      auth: token, body: { title: '新商品のお知らせ', body: '本日発売', scheduled_at: '2026-12-01T09:00:00+09:00' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.post.scheduled_at).toBe('2026-12-01T09:00:00+09:00');
    expect((await s.call('POST', '/api/posts', { auth: token, body: { title: 'x', body: 'y', scheduled_at: 'tomorrow' } })).status).toBe(400);
    expect((await s.call('POST', '/api/posts', { auth: token, body: { body: 'no title' } })).status).toBe(400);
    const form = await fetch(`${s.url}/api/posts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: 'title=x' });
    expect(form.status).toBe(415);
    const posts = await s.call<{ posts: { id: string }[] }>('GET', '/api/posts', { auth: token });
    expect(posts.body.posts.map((p) => p.id)).toEqual([ok.body.post.id]);
  });

  it('answers unknown paths with a JSON 404 and /healthz with ok', async () => {
    const r = await s.call('GET', '/api/nothing-here', { auth: token });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
    expect((await s.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
  });
});

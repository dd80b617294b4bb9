import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { MAX_SITE_HTML } from './sites.routes';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('sites', () => {
  it('publishes, serves raw HTML under a sandbox CSP, lists and unpublishes', async () => {
    const api = server.client();
    expect((await api.post<Body>('/api/site/publish', { slug: 'Bad Slug', html: '<p>x</p>' })).body.error).toBe('invalid slug');
    expect((await api.post<Body>('/api/site/publish', { slug: 'big', html: 'x'.repeat(MAX_SITE_HTML + 1) })).status).toBe(413);
    const pub = await api.post<Body>('/api/site/publish', { slug: 'my-page', html: '<h1>Hello</h1><script>fetch("/api/leads")</script>', name: 'LP' });
    expect(pub.body).toEqual({ ok: true, slug: 'my-page', url: '/site/my-page' });
    const page = await server.client().get('/site/my-page');
    expect(page.text).toContain('<h1>Hello</h1>');
    expect(page.headers.get('content-security-policy')).toMatch(/^sandbox /);
    expect(page.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect(page.headers.get('content-security-policy')).not.toContain('allow-scripts');
    const other = server.client();
    expect((await other.post('/api/site/publish', { slug: 'my-page', html: '<p>mine</p>' })).status).toBe(409);
    expect((await other.post('/api/site/my-page/unpublish')).status).toBe(404);
    const list = await api.get<{ sites: { slug: string; url: string }[] }>('/api/site/list');
    expect(list.body.sites).toEqual([expect.objectContaining({ slug: 'my-page', name: 'LP', url: '/site/my-page' })]);
    await api.post('/api/site/my-page/unpublish');
    const gone = await server.client().get('/site/my-page');
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toContain('text/html');
  });
});

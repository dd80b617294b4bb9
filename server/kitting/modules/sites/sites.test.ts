import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { P, PLATFORM_WS } from '../platform-collections';
import { backfillSiteIndex, siteIndex } from './site-index';
import { MAX_SITE_HTML } from '../../../../shared/api/contracts/public';

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

describe('site index backfill', () => {
  it('builds the index of sites published before the index existed, once, at start', async () => {
    // The state an older release left: published sites, no index records.
    const first = await startTestServer();
    const dataDir = first.dataDir;
    await first.store.transact(PLATFORM_WS, async (tx) => {
      await tx.remove(P.siteIndex, 'ws-old');
      await tx.put(P.sites, 'old-b', { slug: 'old-b', name: 'B', html: '<p>b</p>', tenant: 'ws-old', updated: 2, live: true });
      await tx.put(P.sites, 'old-a', { slug: 'old-a', name: 'A', html: '<p>a</p>', tenant: 'ws-old', updated: 1, live: true });
      await tx.put(P.sites, 'other', { slug: 'other', name: 'O', html: '<p>o</p>', tenant: 'ws-other', updated: 3, live: true });
    });
    await first.store.setMeta('site_index_backfilled', '');
    expect(await siteIndex({ get: (c, id) => first.store.get(PLATFORM_WS, c, id) }, 'ws-old')).toEqual([]);
    await first.close({ keepData: true });

    const restarted = await startTestServer({ dataDir });
    try {
      const read = (t: string) => siteIndex({ get: (c, id) => restarted.store.get(PLATFORM_WS, c, id) }, t);
      expect(await read('ws-old')).toEqual([
        { slug: 'old-a', name: 'A', updated: 1 },
        { slug: 'old-b', name: 'B', updated: 2 },
      ]);
      expect(await read('ws-other')).toEqual([{ slug: 'other', name: 'O', updated: 3 }]);
      expect(await restarted.store.meta('site_index_backfilled')).toBeTruthy();
      // Once done, a later start leaves the index alone.
      expect(await backfillSiteIndex(restarted.store)).toBe(0);
    } finally {
      await restarted.close();
    }
  });
});

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

/** An "internal" page (cloud metadata, an admin panel) on loopback, and a page that redirects to it. */
let inside: Server;
let insideHits = 0;
let insidePort = 0;
let jump: Server;
let jumpUrl = '';
let t: AgentsTestServer;
let viaJump: AgentsTestServer;

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as { port: number }).port;
};

beforeAll(async () => {
  inside = createServer((req, res) => {
    insideHits += 1;
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(256 * 1024, 120);
      let n = 0;
      const pump = () => {
        while (n < 40) {
          n += 1;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (n = 40));
      pump();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>INTERNAL SECRET</title><meta name="description" content="metadata-token-123"></head><body>INTERNAL SECRET</body></html>');
  });
  insidePort = await listen(inside);
  jump = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${insidePort}/` }).end());
  jumpUrl = `http://127.0.0.1:${await listen(jump)}`;
  t = await startAgentsServer();
  // The redirecting page stands in for a public site: only its own host:port is let through.
  viaJump = await startAgentsServer({ allowPrivateFetch: allowOnlyHostsOf(jumpUrl) });
});
afterAll(async () => {
  await t.close();
  await viaJump.close();
  inside.close();
  jump.close();
});

const INTERNAL = (port: number) => [
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:7f00:1]:${port}/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://[64:ff9b::127.0.0.1]:${port}/`,
  `http://[2002:7f00:1::]:${port}/`,
  `http://[::1]:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://2130706433:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://localhost:${port}/`,
];

describe('attack: SSRF through the agent platform', () => {
  it('company-info does not fetch loopback written as IPv4-mapped, NAT64, 6to4 or numeric forms', async () => {
    const { api } = await t.withAgent();
    const before = insideHits;
    for (const url of INTERNAL(insidePort)) {
      const r = await api.get(`/api/agents/company-info?url=${encodeURIComponent(url)}`);
      expect(r.status, url).toBe(400);
      expect(r.text).not.toContain('INTERNAL SECRET');
    }
    expect(insideHits).toBe(before);
  });

  it('a website source on http://[::ffff:127.0.0.1]:PORT/ fails and keeps no internal text', async () => {
    const { api } = await t.withAgent();
    const r = await api.post('/api/sources', { type: 'website', url: `http://[::ffff:127.0.0.1]:${insidePort}/` });
    await Promise.allSettled([...t.ctx.background]);
    const s = await api.get(`/api/sources/${str(r.body.source.id)}`);
    expect(s.body.source).toMatchObject({ status: 'failed', error: 'url must be a public address' });
    expect(s.text).not.toContain('INTERNAL SECRET');
    expect((await api.post('/api/sources/social', { url: `http://[::ffff:7f00:1]:${insidePort}/` })).body).toEqual({ error: 'url must be a public address' });
  });

  it('a page that redirects to loopback is refused at the redirect hop', async () => {
    const { api } = await viaJump.withAgent();
    const before = insideHits;
    const r = await api.get(`/api/agents/company-info?url=${encodeURIComponent(`${jumpUrl}/`)}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'url must be a public address' });
    expect(insideHits).toBe(before);
  });

  it('a webhook endpoint on an IPv4-mapped loopback address is refused', async () => {
    const { api } = await t.withAgent();
    const r = await api.post('/api/webhooks', { url: `https://[::ffff:127.0.0.1]:${insidePort}/hook`, events: ['lead.captured'] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'url must be a public address' });
  });

  it('an oversize page is cut while it streams, not buffered whole', async () => {
    const open = await startAgentsServer({ allowPrivateFetch: allowOnlyHostsOf(`http://127.0.0.1:${insidePort}`) });
    try {
      const { api } = await open.withAgent();
      const r = await api.get(`/api/agents/company-info?url=${encodeURIComponent(`http://127.0.0.1:${insidePort}/huge`)}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'page too large' });
    } finally {
      await open.close();
    }
  });
});

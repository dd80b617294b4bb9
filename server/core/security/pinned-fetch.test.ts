import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOnlyHostsOf } from '../testing/outbound.testkit';
import { pinnedFetch } from './pinned-fetch';

let server: Server;
let base = '';
let hits: string[] = [];
let other: Server;
let otherBase = '';
let otherHits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/echo') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ got: raw, type: req.headers['content-type'] ?? null })));
      return;
    }
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setImmediate(() => res.end('data: two\n\n'));
      return;
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let n = 0;
      const pump = () => {
        while (n < 128) {
          n += 1;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (n = 128));
      pump();
      return;
    }
    if (req.url === '/jump') return void res.writeHead(302, { location: `${otherBase}/` }).end();
    if (req.url === '/empty') return void res.writeHead(204).end();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  other = createServer((_req, res) => {
    otherHits += 1;
    res.end('inside');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  otherBase = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  other.close();
});

describe('pinnedFetch (the guard as a WHATWG fetch for SDKs)', () => {
  it('refuses loopback in every spelling before anything is sent', async () => {
    hits = [];
    const f = pinnedFetch({ allowInternal: false });
    const port = new URL(base).port;
    for (const u of [base, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::ffff:7f00:1]:${port}/`, `http://[::127.0.0.1]:${port}/`, `http://0x7f000001:${port}/`, `http://localhost:${port}/`])
      await expect(f(u, { method: 'POST', body: 'x' }), u).rejects.toThrow(/public address|does not resolve/);
    expect(hits).toEqual([]);
  });

  it('sends method, headers and body (string, form data) and answers a Response with status and headers', async () => {
    const f = pinnedFetch({ allowInternal: allowOnlyHostsOf(base) });
    const res = await f(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.url).toBe(`${base}/echo`);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ got: '{"a":1}', type: 'application/json' });
    const form = new FormData();
    form.append('file', new Blob(['abc']), 'a.txt');
    const multi = (await (await f(`${base}/echo`, { method: 'POST', body: form })).json()) as { got: string; type: string };
    expect(multi.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(multi.got).toContain('abc');
    const empty = await f(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('hands a streamed body on as it comes', async () => {
    const f = pinnedFetch({ allowInternal: allowOnlyHostsOf(base) });
    const res = await f(`${base}/stream`);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\n');
  });

  it('stops reading an oversize body while it streams', async () => {
    const f = pinnedFetch({ allowInternal: allowOnlyHostsOf(base), maxBytes: 256 * 1024 });
    const res = await f(`${base}/big`);
    await expect(res.arrayBuffer()).rejects.toThrow(/too large/);
  });

  it('checks the redirect hop: an allowed fake cannot lead to another loopback port', async () => {
    otherHits = 0;
    const f = pinnedFetch({ allowInternal: allowOnlyHostsOf(base) });
    await expect(f(`${base}/jump`)).rejects.toThrow(/public address/);
    expect(otherHits).toBe(0);
    // A POST never follows: the 302 is answered as it is.
    expect((await f(`${base}/jump`, { method: 'POST', body: '' })).status).toBe(302);
    expect(otherHits).toBe(0);
  });

  it('an aborted signal ends the request with an AbortError', async () => {
    const f = pinnedFetch({ allowInternal: allowOnlyHostsOf(base) });
    const ac = new AbortController();
    ac.abort();
    await expect(f(`${base}/`, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

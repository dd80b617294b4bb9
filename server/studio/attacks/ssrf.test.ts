import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform, PlatformStatus, Submitted } from '../platform/platform';
import { QueueClient } from '../platform/queue-client';
import { startStudio, type TestStudio } from '../testing.testkit';

/** A platform whose answers point the studio at an internal address (a compromised or hostile platform). */
class HostilePlatform implements Platform {
  readonly name = 'remote' as const;
  constructor(private readonly resultUrl: string) {}
  async submit(): Promise<Submitted> {
    return { request_id: 'r1', status: 'queued', status_url: 'x', cancel_url: '' };
  }
  async status(): Promise<PlatformStatus> {
    return { request_id: 'r1', status: 'completed', images: [{ url: this.resultUrl }] };
  }
  async cancel(): Promise<void> {}
}

let inside: Server;
let hits = 0;
let port = 0;
beforeAll(async () => {
  inside = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'image/png' }).end('INTERNAL SECRET');
  });
  await new Promise<void>((r) => inside.listen(0, '127.0.0.1', () => r()));
  port = (inside.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => inside.close(() => r())));

describe('attack: SSRF through the studio', () => {
  it('saving a result whose url is http://[::ffff:127.0.0.1]:PORT/ is refused and nothing is fetched or stored', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]', '0x7f000001']) {
      const s: TestStudio = await startStudio({}, new HostilePlatform(`http://${host}:${port}/secret.png`));
      try {
        const o = await s.register(`ssrf-${hits}-${host.length}@studio.test`);
        await s.grant(o.ws, 100);
        const job = await s.call<{ job: { id: string } }>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/image-v1', prompt: 'x' } });
        expect((await s.call<{ job: { status: string } }>('GET', `/api/hf/jobs/${job.body.job.id}`, { auth: o.token })).body.job.status).toBe('completed');
        const saved = await s.call('POST', `/api/hf/jobs/${job.body.job.id}/save`, { auth: o.token });
        expect(saved.status, host).toBe(502);
        expect(saved.body.message).toMatch(/public address/);
        expect((await s.call<{ media: unknown[] }>('GET', '/api/media', { auth: o.token })).body.media).toEqual([]);
      } finally {
        await s.close();
      }
    }
    expect(hits).toBe(0);
  });

  it('a configured platform url on loopback is refused by the queue client', async () => {
    const client = new QueueClient({ baseUrl: `http://[::ffff:127.0.0.1]:${port}`, key: 'k', retries: 0 });
    await expect(client.submit('studio/image-v1', { prompt: 'x' })).rejects.toThrow(/public address/);
    await expect(client.status(`http://[::ffff:7f00:1]:${port}/status`)).rejects.toThrow(/public address/);
    expect(hits).toBe(0);
  });
});

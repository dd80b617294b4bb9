import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ appUrl: 'https://agents.example' });
});
afterAll(() => t.close());

describe('GET /widget.js', () => {
  it('serves the script the embed snippet points to: JavaScript that talks to the public widget API', async () => {
    const { api } = await t.withAgent('Front Desk');
    const embed = str((await api.get('/api/widget')).body.embed);
    expect(embed).toMatch(/^<script src="https:\/\/agents\.example\/widget\.js" data-agent="[^"]+" async><\/script>$/);

    const res = await fetch(`${t.base}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const code = await res.text();
    expect(() => new Script(code, { filename: 'widget.js' })).not.toThrow();
    for (const part of ["'/api/public/'", "'/chat'", "'/lead'", "'/poll?conversationId='", 'data-agent']) expect(code).toContain(part);
  });

  it('answers 304 to a revalidation with the current ETag', async () => {
    const first = await fetch(`${t.base}/widget.js`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${t.base}/widget.js`, { headers: { 'if-none-match': String(etag) } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
let key: string;
let ws: number;
let ownerToken: string;
beforeAll(async () => {
  s = await startStudio({ localPlatformMs: 100 });
  const o = await s.register('mcp@studio.test');
  ws = o.ws;
  ownerToken = o.token;
  key = await s.apiKey(o.token, 'agent');
});
afterAll(() => s.close());

async function connect(apiKey = key): Promise<Client> {
  const client = new Client({ name: 'studio-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }));
  return client;
}

const rpc = (body: string, apiKey = key, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('POST /mcp through the SDK client', () => {
  it('initializes with tools capability, server info and instructions, and lists the seven tools', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tools).toEqual({});
    expect(client.getServerVersion()?.name).toBe('publishing-studio');
    expect(client.getInstructions()).toMatch(/quote_generation/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['account_balance', 'generate_image', 'generate_video', 'job_status', 'list_effects', 'list_models', 'quote_generation'].sort(),
    );
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
    await client.close();
  });

  it('generates an image with the same price, charge and job as the routes, and follows it to completed', async () => {
    await s.grant(ws, 100);
    const client = await connect();
    const q = (await client.callTool({ name: 'quote_generation', arguments: { model: 'studio/image-v1', prompt: 'mt fuji' } })) as ToolResult;
    expect(q.isError).toBe(false);
    expect(q.structuredContent).toMatchObject({ quote: { price: 12, charge: 12, balance: 100 } });
    expect(JSON.parse(q.content[0].text)).toEqual(q.structuredContent);
    const g = (await client.callTool({ name: 'generate_image', arguments: { prompt: 'mt fuji', aspect_ratio: '16:9' } })) as ToolResult;
    expect(g.isError).toBe(false);
    const job = (g.structuredContent as { job: { id: string; status: string; settings: unknown }; credits: number }).job;
    expect(job.status).toBe('queued');
    expect(job.settings).toEqual({ aspect_ratio: '16:9' });
    expect((g.structuredContent as { credits: number }).credits).toBe(88);
    const viaRoute = await s.call<{ job: { id: string; model: string } }>('GET', `/api/hf/jobs/${job.id}`, { auth: ownerToken });
    expect(viaRoute.body.job.model).toBe('studio/image-v1');
    let status = 'queued';
    for (let i = 0; i < 50 && !['completed', 'failed', 'nsfw'].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      const st = (await client.callTool({ name: 'job_status', arguments: { job_id: job.id } })) as ToolResult;
      status = (st.structuredContent as { job: { status: string } }).job.status;
    }
    expect(status).toBe('completed');
    const bal = (await client.callTool({ name: 'account_balance', arguments: {} })) as ToolResult;
    expect(bal.structuredContent).toMatchObject({ credits: { balance: 88 }, usage: { ai_units: 1 } });
    const models = (await client.callTool({ name: 'list_models', arguments: {} })) as ToolResult;
    expect((models.structuredContent as { models: unknown[] }).models.length).toBeGreaterThan(0);
    const effects = (await client.callTool({ name: 'list_effects', arguments: {} })) as ToolResult;
    expect((effects.structuredContent as { effects: unknown[] }).effects.length).toBeGreaterThan(0);
    await client.close();
  });

  it('refused calls are results with isError and the route’s own message', async () => {
    const hard = await startStudio({ creditEnforcement: true });
    try {
      const o = await hard.register('broke@studio.test');
      const k = await hard.apiKey(o.token);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${hard.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${k}` } } }));
      const broke = (await client.callTool({ name: 'generate_video', arguments: { prompt: 'waves', duration: 5 } })) as ToolResult;
      expect(broke.isError).toBe(true);
      expect(broke.content[0].text).toBe('Not enough credits for this generation.');
      const badModel = (await client.callTool({ name: 'generate_image', arguments: { prompt: 'x', model: 'no/such-model' } })) as ToolResult;
      expect(badModel.isError).toBe(true);
      expect(badModel.content[0].text).toMatch(/^unknown model/);
      expect(await hard.get('SELECT COUNT(*) AS n FROM jobs')).toEqual({ n: 0 });
      await client.close();
    } finally {
      await hard.close();
    }
  });

  it('another workspace’s job is refused as not found (tenant isolation)', async () => {
    const other = await s.register('other-tenant@studio.test');
    const theirs = await s.call<{ job: { id: string } }>('POST', '/api/hf/generate', { auth: other.token, body: { model: 'studio/image-v1', prompt: 'secret' } });
    const client = await connect();
    const r = (await client.callTool({ name: 'job_status', arguments: { job_id: theirs.body.job.id } })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe('job not found');
    expect(JSON.stringify(r)).not.toContain('secret');
    await client.close();
  });

  it('an unknown tool is a JSON-RPC error -32602, not a result', async () => {
    const client = await connect();
    const err = await client.callTool({ name: 'delete_everything', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    await client.close();
  });
});

describe('POST /mcp on the wire', () => {
  it('answers parse errors -32700 and invalid requests -32600 with 400', async () => {
    const parse = await rpc('{not json');
    expect(parse.status).toBe(400);
    expect((await parse.json()).error.code).toBe(-32700);
    for (const body of ['{"id":1,"method":"tools/list"}', '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', '42', '{"jsonrpc":"2.0","id":{},"method":"x"}']) {
      const r = await rpc(body);
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe(-32600);
    }
  });

  it('answers an unknown method -32601, a notification 202 with no body, and tools/list without a session', async () => {
    const unknown = await rpc('{"jsonrpc":"2.0","id":7,"method":"resources/explode"}');
    expect((await unknown.json()).error.code).toBe(-32601);
    const note = await rpc('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    const list = await rpc('{"jsonrpc":"2.0","id":"a","method":"tools/list"}', key, { accept: 'application/json' });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/application\/json/);
    const body = await list.json();
    expect(body.id).toBe('a');
    expect(body.result.tools).toHaveLength(7);
    expect(list.headers.get('mcp-session-id')).toBeNull();
  });

  it('answers GET and DELETE with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${s.url}/mcp`, { method, headers: { authorization: `Bearer ${key}` } });
      expect(r.status).toBe(405);
    }
  });

  it('needs a valid API key: 401 invalid api key without one, with a session token, or with a revoked key', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    for (const auth of ['', ownerToken, 'sk_studio_bogus']) {
      const r = await rpc(body, auth);
      expect(r.status).toBe(401);
      expect((await r.json()).error).toBe('invalid api key');
    }
  });

  it('allows 120 calls a minute per key, then answers 429', async () => {
    const k = await s.apiKey(ownerToken, 'busy');
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    for (let i = 0; i < 120; i++) expect((await rpc(body, k)).status).toBe(200);
    const over = await rpc(body, k);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await rpc(body, key)).status).toBe(200);
  });
});

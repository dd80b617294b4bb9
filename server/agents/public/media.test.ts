import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import express from 'express';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { OpenAiMedia } from './media';

/** A local stand-in for the speech and chat APIs (what the official SDK sends, and canned answers). */
interface FakeSpeech {
  url: string;
  seen: { path: string; auth: string; type: string; body: unknown }[];
  fail: boolean;
  close(): Promise<void>;
}
const MP3 = Buffer.from('ID3\u0003fake-mp3-frames');

async function startFakeSpeech(): Promise<FakeSpeech> {
  const app = express();
  const fake = { seen: [], fail: false } as unknown as FakeSpeech;
  app.use(express.json());
  app.use(express.raw({ type: 'multipart/form-data', limit: '5mb' }));
  app.use((req, res, next) => {
    fake.seen.push({ path: req.path, auth: req.headers.authorization ?? '', type: String(req.headers['content-type'] ?? ''), body: req.body });
    if (fake.fail) return void res.status(400).json({ error: { message: 'Invalid voice request', type: 'invalid_request_error' } });
    next();
  });
  app.post('/v1/audio/speech', (_req, res) => void res.type('audio/mpeg').send(MP3));
  app.post('/v1/audio/transcriptions', (_req, res) => void res.json({ text: 'What are your opening hours?' }));
  app.post('/v1/chat/completions', (_req, res) =>
    void res.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: ' 営業時間は何時ですか？ ' } }] }),
  );
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const addr = server.address();
  fake.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

let bare: AgentsTestServer;
let withSpeech: AgentsTestServer;
let fake: FakeSpeech;
beforeAll(async () => {
  fake = await startFakeSpeech();
  bare = await startAgentsServer();
  withSpeech = await startAgentsServer({}, { media: new OpenAiMedia('sk-test-speech', `${fake.url}/v1`, allowOnlyHostsOf(fake.url)) });
});
afterAll(async () => {
  await bare.close();
  await withSpeech.close();
  await fake.close();
});

let ip = 0;
/** An anonymous visitor from its own address (per-IP limits are not shared between tests). */
const visitor = (t: AgentsTestServer) => t.api(null, { 'x-forwarded-for': `10.61.${++ip >> 8}.${ip & 255}` });
const SPEECH = Buffer.from('OggS-recorded-speech').toString('base64');

describe('widget speech, translation and avatar without a provider', () => {
  it('answers 503 naming what is not configured, after checking the agent and the input', async () => {
    const { publicId } = await bare.withAgent();
    const v = visitor(bare);
    const p = `/api/public/${publicId}`;
    expect(await v.post(`${p}/tts`, { text: 'Hello' })).toMatchObject({ status: 503, body: { error: 'speech not configured' } });
    expect(await v.post(`${p}/transcribe`, { audio: SPEECH, mime: 'audio/ogg' })).toMatchObject({ status: 503, body: { error: 'speech not configured' } });
    expect(await v.post(`${p}/translate`, { text: 'Hello', target: 'ja' })).toMatchObject({ status: 503, body: { error: 'translation not configured' } });
    expect(await v.post(`${p}/avatar-session`, {})).toMatchObject({ status: 503, body: { error: 'avatar not configured' } });
    expect(await v.get(`${p}/avatar-video?sessionId=s1`)).toMatchObject({ status: 503, body: { error: 'avatar not configured' } });
    // The same language needs no provider.
    expect((await v.post(`${p}/translate`, { text: 'Hello', source: 'en', target: 'en' })).body).toEqual({ text: 'Hello', source: 'en', target: 'en' });

    expect((await v.post('/api/public/pub_missing/tts', { text: 'Hello' })).body).toEqual({ error: 'agent not found' });
    expect((await v.post(`${p}/tts`, {})).body).toEqual({ error: 'text is required' });
    expect((await v.post(`${p}/tts`, { text: 'x'.repeat(4001) })).body).toEqual({ error: 'text: text must be at most 4000 characters' });
    expect((await v.post(`${p}/tts`, { text: 'Hi', voice: 'robot' })).status).toBe(400);
    expect((await v.post(`${p}/translate`, { text: 'Hi', target: 'Japanese!' })).body).toEqual({ error: 'target: must be a language code such as ja or en-US' });
    expect((await v.post(`${p}/transcribe`, {})).body).toEqual({ error: 'audio is required' });
    expect((await v.post(`${p}/transcribe`, { audio: SPEECH, mime: 'video/mp4' })).status).toBe(400);
    expect((await v.get(`${p}/avatar-video`)).body).toEqual({ error: 'sessionId is required' });
  });

  it('a paused workspace gets 402 like its chat', async () => {
    const { api, publicId } = await bare.withAgent();
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    await bare.ctx.db.updateTable('workspaces').set({ paused: 1 }).where('id', '=', ws).execute();
    const r = await visitor(bare).post(`/api/public/${publicId}/tts`, { text: 'Hello' });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: 'subscription paused' });
  });

  it('limits avatar-video to 10 and the POST operations to 30 per minute per address', async () => {
    const { publicId } = await bare.withAgent();
    const v = visitor(bare);
    for (let i = 0; i < 10; i++) expect((await v.get(`/api/public/${publicId}/avatar-video?sessionId=s`)).status).toBe(503);
    const limited = await v.get(`/api/public/${publicId}/avatar-video?sessionId=s`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const w = visitor(bare);
    for (let i = 0; i < 30; i++) expect((await w.post(`/api/public/${publicId}/translate`, { text: 'Hi', source: 'en', target: 'en' })).status).toBe(200);
    expect((await w.post(`/api/public/${publicId}/tts`, { text: 'Hi' })).status).toBe(429);
  });
});

describe('widget speech and translation through the provider (official SDK against a local fake)', () => {
  it('speaks text as MP3, transcribes a recording and translates', async () => {
    const { publicId } = await withSpeech.withAgent();
    const v = visitor(withSpeech);
    const p = `/api/public/${publicId}`;
    const res = await fetch(`${withSpeech.base}${p}/tts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.62.0.1' }, body: JSON.stringify({ text: 'Welcome!', voice: 'nova' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(MP3)).toBe(true);
    const speak = fake.seen.find((s) => s.path === '/v1/audio/speech');
    expect(speak).toMatchObject({ auth: 'Bearer sk-test-speech', body: { input: 'Welcome!', voice: 'nova', response_format: 'mp3' } });

    const heard = await v.post(`${p}/transcribe`, { audio: `data:audio/ogg;base64,${SPEECH}`, lang: 'en' });
    expect(heard.body).toEqual({ text: 'What are your opening hours?', lang: 'en' });
    const upload = fake.seen.find((s) => s.path === '/v1/audio/transcriptions');
    expect(upload?.type).toMatch(/^multipart\/form-data/);
    expect(String(upload?.body)).toContain('OggS-recorded-speech');

    const tr = await v.post(`${p}/translate`, { text: 'What are your opening hours?', target: 'ja' });
    expect(tr.body).toEqual({ text: '営業時間は何時ですか？', source: null, target: 'ja' });
    const chat = fake.seen.find((s) => s.path === '/v1/chat/completions')?.body as { messages: { role: string; content: string }[] };
    expect(chat.messages[0].content).toContain('code ja');
    expect(chat.messages[1]).toEqual({ role: 'user', content: 'What are your opening hours?' });
  });

  it('a provider failure is a 502 naming the provider, not a made-up result', async () => {
    const { publicId } = await withSpeech.withAgent();
    fake.fail = true;
    try {
      const r = await visitor(withSpeech).post(`/api/public/${publicId}/translate`, { text: 'Hi', target: 'ja' });
      expect(r.status).toBe(502);
      expect(str(r.body.error)).toMatch(/^translation provider error: /);
    } finally {
      fake.fail = false;
    }
  });
});

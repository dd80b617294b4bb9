import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOnlyHostsOf } from '../core/testing/outbound.testkit';
import { startFakePlatform, type FakePlatform } from './fake-platform.testkit';
import { QueueClient } from './platform/queue-client';
import { ADMIN, CRON, startStudio, type TestStudio } from './testing.testkit';
import type { JobView } from './jobs';

let fake: FakePlatform;
let s: TestStudio;
beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startStudio({}, new QueueClient({ baseUrl: fake.url, key: fake.key, backoffMs: 5, timeoutMs: 2000, allowInternal: allowOnlyHostsOf(fake.url) }), allowOnlyHostsOf(fake.url));
});
afterAll(async () => {
  await s.close();
  await fake.close();
});

type JobReply = { job: JobView; credits: number; charged: number };
const balance = async (auth: string) => (await s.call<{ credits: { balance: number } }>('GET', '/api/billing', { auth })).body.credits.balance;
const submit = (auth: string, body: Record<string, unknown> = { model: 'studio/image-v1', prompt: 'a lighthouse at dusk' }) =>
  s.call<JobReply>('POST', '/api/hf/generate', { auth, body });
const poll = (auth: string, id: string) => s.call<{ job: JobView }>('GET', `/api/hf/jobs/${id}`, { auth });

async function owner(email: string, credits = 500) {
  const o = await s.register(email);
  if (credits) await s.grant(o.ws, credits);
  return o;
}

describe('POST /api/hf/generate → GET /api/hf/jobs/{id} → save', () => {
  it('records the job, charges it, and follows the platform to completed; a finished job never calls the platform again', async () => {
    const o = await owner('flow@jobs.test');
    const r = await submit(o.token, { model: 'studio/image-v1', prompt: 'a lighthouse at dusk', settings: { aspect_ratio: '16:9' } });
    expect(r.status).toBe(200);
    expect(r.body.job).toMatchObject({ status: 'queued', model: 'studio/image-v1', surface: 'image', prompt: 'a lighthouse at dusk', error: null, results: [], settings: { aspect_ratio: '16:9' }, media: {} });
    expect(r.body.job.id).toMatch(/^job_/);
    expect(r.body.job.engine).toBe('platform');
    expect(r.body.credits).toBe(488);
    const req = fake.last();
    expect(req.model).toBe('studio/image-v1');
    expect(req.body).toEqual({ prompt: 'a lighthouse at dusk', aspect_ratio: '16:9' });
    expect(r.body.job.request_id).toBe(req.id);
    const charge = await s.get("SELECT amount, job_id FROM credit_ledger WHERE reason = 'charge' AND job_id = ?", r.body.job.id);
    expect(charge).toEqual({ amount: -12, job_id: r.body.job.id });

    const queued = await poll(o.token, r.body.job.id);
    expect(queued.body.job.status).toBe('queued');
    expect(fake.statusCalls.get(req.id)).toBe(1);
    fake.end(req.id, { status: 'in_progress' });
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('in_progress');
    fake.end(req.id, { status: 'completed' });
    const done = await poll(o.token, r.body.job.id);
    expect(done.body.job.status).toBe('completed');
    expect(done.body.job.results).toEqual([{ type: 'image', url: `${fake.url}/media/${req.id}.png` }]);
    const calls = fake.statusCalls.get(req.id);
    for (let i = 0; i < 3; i++) expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('completed');
    await s.call('POST', '/api/cron/poll', { headers: { 'x-cron-secret': CRON } });
    expect(fake.statusCalls.get(req.id)).toBe(calls);

    const first = await Promise.all([1, 2].map(() => s.call<{ media: { id: string; key: string; url: string } }>('POST', `/api/hf/jobs/${r.body.job.id}/save`, { auth: o.token })));
    expect(first[1].body.media.id).toBe(first[0].body.media.id);
    const saved = first[0];
    expect(saved.status).toBe(200);
    expect(saved.body.ok).toBe(true);
    expect(Object.keys(saved.body.media).sort()).toEqual(expect.arrayContaining(['id', 'key', 'url']));
    const file = await fetch(saved.body.media.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const again = await Promise.all([1, 2, 3].map(() => s.call<{ media: { id: string } }>('POST', `/api/hf/jobs/${r.body.job.id}/save`, { auth: o.token })));
    expect(again.map((a) => a.body.media.id)).toEqual([saved.body.media.id, saved.body.media.id, saved.body.media.id]);
    const lib = await s.call<{ media: { id: string; job_id: string }[] }>('GET', '/api/media', { auth: o.token });
    expect(lib.body.media).toEqual([expect.objectContaining({ id: saved.body.media.id, job_id: r.body.job.id })]);
    expect(await balance(o.token)).toBe(488);
  });

  it('failed: keeps the platform’s message and refunds in full', async () => {
    const o = await owner('failed@jobs.test');
    const r = await submit(o.token, { model: 'studio/frontier-video-v1', prompt: 'surf', settings: { duration: 5, resolution: '1080p' } });
    expect(r.body.credits).toBe(380);
    fake.end(fake.last().id, { status: 'failed', error: 'GPU worker crashed' });
    const j = await poll(o.token, r.body.job.id);
    expect(j.body.job).toMatchObject({ status: 'failed', error: 'GPU worker crashed', results: [] });
    expect(await balance(o.token)).toBe(500);
    await poll(o.token, r.body.job.id);
    await s.call('POST', '/api/cron/poll', { headers: { 'x-cron-secret': CRON } });
    expect(await balance(o.token)).toBe(500);
    const refunds = await s.get("SELECT COUNT(*) AS n FROM credit_ledger WHERE reason = 'refund' AND job_id = ?", r.body.job.id);
    expect(refunds).toEqual({ n: 1 });
  });

  it('failed without a message says "The generation failed."', async () => {
    const o = await owner('failed2@jobs.test');
    const r = await submit(o.token);
    fake.end(fake.last().id, { status: 'failed' });
    expect((await poll(o.token, r.body.job.id)).body.job.error).toBe('The generation failed.');
  });

  it('nsfw: the error says the safety filter rejected it, and the charge is refunded', async () => {
    const o = await owner('nsfw@jobs.test');
    const r = await submit(o.token, { model: 'studio/audio-clip-v1', prompt: 'noise' });
    expect(r.body.credits).toBe(492);
    fake.end(fake.last().id, { status: 'nsfw' });
    const j = await poll(o.token, r.body.job.id);
    expect(j.body.job.status).toBe('nsfw');
    expect(j.body.job.error).toMatch(/safety filter rejected the generation/);
    expect(await balance(o.token)).toBe(500);
  });

  it('a pass-covered job that fails is not refunded (no credits are minted)', async () => {
    const o = await owner('passfail@jobs.test', 0);
    await s.call('POST', '/api/admin/passes', { headers: { 'x-admin-secret': ADMIN }, body: { workspace_id: o.ws, scope: 'all' } });
    const r = await submit(o.token);
    expect(r.body.charged).toBe(0);
    fake.end(fake.last().id, { status: 'failed', error: 'boom' });
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('failed');
    const c = await s.call<{ job: JobView }>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/image-v1', prompt: 'x' } });
    await s.call('POST', `/api/hf/jobs/${c.body.job.id}/cancel`, { auth: o.token });
    expect(await balance(o.token)).toBe(0);
  });

  it('cancel ends an unfinished job as failed, tells the platform, refunds; a finished job cannot be cancelled or saved unless completed', async () => {
    const o = await owner('cancel@jobs.test');
    const r = await submit(o.token);
    const req = fake.last();
    const c = await s.call<{ job: JobView }>('POST', `/api/hf/jobs/${r.body.job.id}/cancel`, { auth: o.token });
    expect(c.status).toBe(200);
    expect(c.body.job.status).toBe('failed');
    expect(c.body.job.error).toMatch(/cancelled/);
    expect(req.cancelled).toBe(true);
    expect(await balance(o.token)).toBe(500);
    const twice = await s.call('POST', `/api/hf/jobs/${r.body.job.id}/cancel`, { auth: o.token });
    expect(twice.status).toBe(409);
    const save = await s.call('POST', `/api/hf/jobs/${r.body.job.id}/save`, { auth: o.token });
    expect(save.status).toBe(409);
    expect(save.body.error).toBe('job not completed');
    fake.end(req.id, { status: 'completed' });
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('failed');
    expect(await balance(o.token)).toBe(500);
  });

  it('concurrent polls of a failing job refund exactly once', async () => {
    const o = await owner('race@jobs.test');
    const r = await submit(o.token);
    fake.end(fake.last().id, { status: 'failed', error: 'x' });
    await Promise.all(Array.from({ length: 8 }, () => poll(o.token, r.body.job.id)));
    expect(await balance(o.token)).toBe(500);
  });
});

describe('the platform client', () => {
  it('keeps the platform’s refusal text on the job and refunds when submitting fails', async () => {
    const o = await owner('submitfail@jobs.test');
    fake.failNextSubmits(1, 422, { detail: 'prompt too long for this model' });
    const r = await submit(o.token);
    expect(r.status).toBe(200);
    expect(r.body.job.status).toBe('failed');
    expect(r.body.job.error).toContain('prompt too long for this model');
    expect(r.body.credits).toBe(500);
  });

  it('retries with back-off when the platform is overloaded, then succeeds', async () => {
    const o = await owner('retry@jobs.test');
    const before = fake.requests.length;
    fake.failNextSubmits(2, 503, { detail: 'busy' });
    const r = await submit(o.token);
    expect(r.body.job.status).toBe('queued');
    expect(fake.requests.length).toBe(before + 1);
    const req = fake.last();
    fake.end(req.id, { status: 'completed' });
    fake.failNextStatus(2, 502);
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('completed');
    expect(fake.statusCalls.get(req.id)).toBe(3);
  });

  it('leaves the job unfinished when the platform stays unreachable, so a later poll can finish it', async () => {
    const o = await owner('down@jobs.test');
    const r = await submit(o.token);
    fake.failNextStatus(10, 500);
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('queued');
    fake.failNextStatus(0, 500);
    fake.end(fake.last().id, { status: 'completed' });
    expect((await poll(o.token, r.body.job.id)).body.job.status).toBe('completed');
  });

  it('is used with STUDIO_HF_URL and STUDIO_HF_KEY, sending Authorization: Key <key>', async () => {
    const other = await startStudio({ hfUrl: fake.url, hfKey: fake.key }, undefined, allowOnlyHostsOf(fake.url));
    try {
      const o = await other.register('configured@jobs.test');
      const r = await other.call<JobReply>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/image-v1', prompt: 'configured' } });
      expect(r.body.job.status).toBe('queued');
      expect(fake.last().body.prompt).toBe('configured');
      const wrong = await startStudio({ hfUrl: fake.url, hfKey: 'kid:wrong' }, undefined, allowOnlyHostsOf(fake.url));
      const w = await wrong.register('wrongkey@jobs.test');
      const f = await wrong.call<JobReply>('POST', '/api/hf/generate', { auth: w.token, body: { model: 'studio/image-v1', prompt: 'x' } });
      expect(f.body.job.status).toBe('failed');
      expect(f.body.job.error).toContain('bad key');
      await wrong.close();
    } finally {
      await other.close();
    }
  });
});

describe('platform timeouts', () => {
  it('a platform that does not answer in time fails the submit with that text, refunds, and is not asked twice', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const silent = createServer(() => void hits++);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    const slow = await startStudio({}, new QueueClient({ baseUrl: `http://127.0.0.1:${port}`, key: 'k:s', timeoutMs: 200, backoffMs: 5, allowInternal: true }));
    try {
      const o = await slow.register('timeout@jobs.test');
      const r = await slow.call<JobReply>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/image-v1', prompt: 'x' } });
      expect(r.body.job.status).toBe('failed');
      expect(r.body.job.error).toBe('The generation platform did not answer within 200 ms.');
      expect(r.body.credits).toBe(0);
      expect(hits).toBe(1);
    } finally {
      await slow.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('POST /api/cron/poll', () => {
  it('advances every unfinished job once even when nobody polls', async () => {
    const o = await owner('cron@jobs.test');
    const a = await submit(o.token);
    const ra = fake.last();
    const b = await submit(o.token);
    const rb = fake.last();
    fake.end(ra.id, { status: 'completed' });
    fake.end(rb.id, { status: 'nsfw' });
    const unfinished = (await s.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE status NOT IN ('completed','failed','nsfw')"))!.n;
    const r = await s.call<{ checked: number; finished: number }>('POST', '/api/cron/poll', { headers: { 'x-cron-secret': CRON } });
    expect(r.body.checked).toBe(unfinished);
    expect(r.body.finished).toBeGreaterThanOrEqual(2);
    const rows = await s.all('SELECT id, status FROM jobs WHERE id IN (?, ?) ORDER BY id = ? DESC', a.body.job.id, b.body.job.id, a.body.job.id);
    expect(rows).toEqual([{ id: a.body.job.id, status: 'completed' }, { id: b.body.job.id, status: 'nsfw' }]);
    expect(await balance(o.token)).toBe(488);
  });
});

describe('jobs that never reached the platform', () => {
  it('the cron route fails and refunds a job left without a platform request for more than ten minutes', async () => {
    const o = await owner('orphan@jobs.test');
    const r = await submit(o.token);
    const old = new Date(Date.now() - 11 * 60_000).toISOString();
    await s.run('UPDATE jobs SET status_url = NULL, created_at = ? WHERE id = ?', old, r.body.job.id);
    expect(await balance(o.token)).toBe(488);
    await s.call('POST', '/api/cron/poll', { headers: { 'x-cron-secret': CRON } });
    const j = await poll(o.token, r.body.job.id);
    expect(j.body.job).toMatchObject({ status: 'failed', error: 'The generation could not be submitted.' });
    expect(await balance(o.token)).toBe(500);
  });
});

describe('tenant isolation', () => {
  it('another workspace’s job is not found for poll, save and cancel, and its platform request is never asked', async () => {
    const mine = await owner('mine@jobs.test');
    const theirs = await owner('theirs@jobs.test');
    const r = await submit(mine.token);
    const req = fake.last();
    const calls = fake.statusCalls.get(req.id) ?? 0;
    const key = await s.apiKey(theirs.token);
    for (const auth of [theirs.token, key]) {
      for (const [method, path] of [['GET', ''], ['POST', '/save'], ['POST', '/cancel']]) {
        const x = await s.call(method, `/api/hf/jobs/${r.body.job.id}${path}`, { auth });
        expect(x.status).toBe(404);
        expect(x.body.error).toBe('job not found');
      }
    }
    expect(fake.statusCalls.get(req.id) ?? 0).toBe(calls);
    expect((await poll(mine.token, r.body.job.id)).body.job.status).toBe('queued');
    expect((await s.call<{ media: unknown[] }>('GET', '/api/media', { auth: theirs.token })).body.media).toEqual([]);
  });
});

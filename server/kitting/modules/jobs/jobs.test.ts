import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Job {
  id: string;
  c: string;
  t: string;
  s: number;
  due: string;
  ch: string;
  tag: string;
}
type JobBody = { ok: boolean; job: Job };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('GET /api/jobs', () => {
  it('lists seeded cards across all 8 stages', async () => {
    const res = await api.get<{ jobs: Job[] }>('/api/jobs');
    const stages = new Set(res.body.jobs.map((j) => j.s));
    expect([...stages].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('POST /api/job', () => {
  it('assigns a job- id and defaults ch to c-blue and s to 0', async () => {
    const res = await api.post<JobBody>('/api/job', { c: 'ABC物流株式会社', t: 'iPhone 16 初期設定 50台' });
    expect(res.body.job.id).toMatch(/^job-/);
    expect(res.body.job).toMatchObject({ c: 'ABC物流株式会社', t: 'iPhone 16 初期設定 50台', s: 0, ch: 'c-blue', due: '', tag: '' });
  });

  it('clamps the stage to 0..7 and reads a non-finite stage as 0', async () => {
    expect((await api.post<JobBody>('/api/job', { s: 12 })).body.job.s).toBe(7);
    expect((await api.post<JobBody>('/api/job', { s: -3 })).body.job.s).toBe(0);
    expect((await api.post<JobBody>('/api/job', { s: 'abc' })).body.job.s).toBe(0);
    expect((await api.post<JobBody>('/api/job', { s: 3.7 })).body.job.s).toBe(3);
  });

  it('clips c 120, t 300, due/ch/tag 40', async () => {
    const j = (await api.post<JobBody>('/api/job', { c: 'c'.repeat(200), t: 't'.repeat(400), due: 'd'.repeat(50), ch: 'x'.repeat(50), tag: 'g'.repeat(50) })).body.job;
    expect([j.c.length, j.t.length, j.due.length, j.ch.length, j.tag.length]).toEqual([120, 300, 40, 40, 40]);
  });

  it('refuses a non-string title with 400', async () => {
    const res = await api.post('/api/job', { t: ['x'] });
    expect(res.status).toBe(400);
    expect(res.body.ok).toBe(false);
  });
});

describe('POST /api/job/{id}', () => {
  it('changes only the non-null fields', async () => {
    const { id } = (await api.post<JobBody>('/api/job', { c: 'A', t: 'T', tag: '至急' })).body.job;
    const res = await api.post<JobBody>(`/api/job/${id}`, { s: 4, c: null, t: undefined });
    expect(res.body.job).toMatchObject({ id, c: 'A', t: 'T', s: 4, tag: '至急' });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api.post('/api/job/job-nope', { s: 1 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'job not found' });
  });
});

describe('POST /api/job/{id}/delete', () => {
  it('deletes and answers the id', async () => {
    const { id } = (await api.post<JobBody>('/api/job', {})).body.job;
    expect((await api.post(`/api/job/${id}/delete`)).body).toEqual({ ok: true, id });
    expect((await api.get<{ jobs: Job[] }>('/api/jobs')).body.jobs.some((j) => j.id === id)).toBe(false);
    expect((await api.post(`/api/job/${id}/delete`)).status).toBe(404);
  });
});

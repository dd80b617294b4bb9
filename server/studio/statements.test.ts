import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, type StatementLog } from '../core/db/statement-counter.testkit';
import type { StudioContext } from './context';
import { signedFileUrl } from './media';
import { makePng } from './platform/media-gen';
import type { Platform } from './platform/platform';
import { startStudio, testStore, type TestStudio } from './testing.testkit';

/**
 * How many statements one job round trip sends to the store (on PostgreSQL each is a round trip to the
 * server, BEGIN and COMMIT included): generate, one poll that finds the job completed, save, each called
 * with an API key. A statement added back to one of them fails here (the studio benchmark's PostgreSQL
 * figure depends on it, see docs/performance.md).
 */
let s: TestStudio;
let log: StatementLog;
let key: string;
let ctxRef: StudioContext | null = null;

/** Every job is finished at its first status call, with a file of the platform folder as its result. */
const instant: Platform = {
  name: 'local',
  submit: async () => ({ request_id: 'r1', status: 'queued', status_url: 'instant://r1', cancel_url: '' }),
  status: async () => ({ status: 'completed', images: [{ url: signedFileUrl(ctxRef!, 'platform', 'result.png') }] }),
  cancel: async () => {},
};

beforeAll(async () => {
  s = await startStudio({}, instant);
  ctxRef = s.ctx;
  mkdirSync(join(s.ctx.config.dataDir, 'platform'), { recursive: true });
  writeFileSync(join(s.ctx.config.dataDir, 'platform', 'result.png'), makePng('result', 8, 8));
  const o = await s.register('counted@studio.test');
  expect((await s.call('POST', '/api/billing/plan', { auth: o.token, body: { plan: 'business' } })).status).toBe(200);
  key = await s.apiKey(o.token);
  log = recordStatements(s.ctx.database);
});
afterAll(async () => {
  await s?.close();
});

/** One job round trip; the statements of each request. */
async function roundTrip() {
  log.take();
  const gen = await s.call<{ job: { id: string } }>('POST', '/api/hf/generate', { auth: key, body: { model: 'studio/image-v1', prompt: 'counted' } });
  expect(gen.status).toBe(200);
  const generate = log.take();
  const poll = await s.call<{ job: { status: string } }>('GET', `/api/hf/jobs/${gen.body.job.id}`, { auth: key });
  expect(poll.body.job.status).toBe('completed');
  const polled = log.take();
  const save = await s.call('POST', `/api/hf/jobs/${gen.body.job.id}/save`, { auth: key });
  expect(save.status).toBe(200);
  const saved = log.take();
  return { generate, poll: polled, save: saved };
}

/** PostgreSQL runs the writes of a generation as one statement (no BEGIN/COMMIT); SQLite in one transaction of cheap in-process statements. */
const EXPECTED = testStore() === 'pg' ? { generate: 4, poll: 3, save: 3 } : { generate: 9, poll: 3, save: 3 };

describe(`statements per request of a job round trip (${testStore()})`, () => {
  it('generate, poll and save with an API key send no more statements than counted', async () => {
    await roundTrip();
    // The API key was used within the last second: no last_used_at touch in the counted trip.
    const r = await roundTrip();
    const counted = { generate: r.generate.length, poll: r.poll.length, save: r.save.length };
    expect(counted, JSON.stringify(r, null, 1)).toEqual(EXPECTED);
  });

  it('a session token is checked (user, session, membership) in one statement', async () => {
    const o = await s.register('session@studio.test');
    log.take();
    expect((await s.call('GET', '/api/hf/jobs/job_none', { auth: o.token })).status).toBe(404);
    const sent = log.take();
    expect(sent, sent.join('\n')).toHaveLength(2);
  });
});

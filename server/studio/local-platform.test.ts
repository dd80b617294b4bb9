import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from './jobs';
import { signedFileUrl } from './media';
import { makeApng, makePng, makeWav } from './platform/media-gen';
import { startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
let token: string;
beforeAll(async () => {
  s = await startStudio({ localPlatformMs: 150 });
  token = (await s.register('local@studio.test')).token;
});
afterAll(() => s.close());

async function untilDone(id: string): Promise<JobView> {
  for (;;) {
    const { body } = await s.call<{ job: JobView }>('GET', `/api/hf/jobs/${id}`, { auth: token });
    if (['completed', 'failed', 'nsfw'].includes(body.job.status)) return body.job;
    await new Promise((r) => setTimeout(r, 40));
  }
}

function chunks(png: Buffer): string[] {
  const out: string[] = [];
  for (let o = 8; o < png.length; ) {
    const len = png.readUInt32BE(o);
    out.push(png.subarray(o + 4, o + 8).toString('ascii'));
    o += 12 + len;
  }
  return out;
}

describe('generated media', () => {
  it('a PNG whose pixel data inflates to width × height RGB rows', () => {
    const png = makePng('cat', 40, 30);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(chunks(png)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const idat = png.subarray(33 + 8, 33 + 8 + png.readUInt32BE(33));
    expect(inflateSync(idat).length).toBe((40 * 3 + 1) * 30);
    expect(makePng('cat', 40, 30)).toEqual(png);
    expect(makePng('dog', 40, 30)).not.toEqual(png);
  });

  it('an animated PNG with one frame control per frame', () => {
    const apng = makeApng('waves', 32, 18, 6, 3);
    const names = chunks(apng);
    expect(names.slice(0, 2)).toEqual(['IHDR', 'acTL']);
    expect(names.filter((n) => n === 'fcTL')).toHaveLength(6);
    expect(names.filter((n) => n === 'fdAT')).toHaveLength(5);
  });

  it('a 16-bit mono PCM WAV of the asked length', () => {
    const wav = makeWav('tune', 2, 8000);
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.subarray(8, 12).toString()).toBe('WAVE');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(40)).toBe(2 * 8000 * 2);
    expect(wav.length).toBe(44 + 32000);
  });
});

describe('the built-in local platform', () => {
  it('finishes image, audio and video jobs with real files behind signed urls, saved into the library', async () => {
    const kinds: [string, Record<string, unknown>, string, string][] = [
      ['studio/image-v1', { aspect_ratio: '9:16' }, 'image', 'image/png'],
      ['studio/audio-clip-v1', { duration: 1 }, 'audio', 'audio/wav'],
      ['studio/frontier-video-v1', { duration: 2 }, 'video', 'image/apng'],
    ];
    for (const [model, settings, type, contentType] of kinds) {
      const sub = await s.call<{ job: JobView }>('POST', '/api/hf/generate', { auth: token, body: { model, prompt: 'harbour at night', settings } });
      expect(sub.body.job.engine).toBe('local-placeholder');
      const job = await untilDone(sub.body.job.id);
      expect(job.status).toBe('completed');
      // placeholders, not generated content: the answer says so
      expect(job.engine).toBe('local-placeholder');
      expect(job.results).toHaveLength(1);
      expect(job.results[0].type).toBe(type);
      expect(job.results[0].url).toMatch(new RegExp(`^${s.url}/files/platform/lp_[0-9a-f]{16}\\.\\w+\\?exp=\\d+&sig=`));
      const res = await fetch(job.results[0].url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(contentType);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (type === 'image') expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([180, 320]);
      if (type === 'audio') expect(bytes.subarray(8, 12).toString()).toBe('WAVE');
      const saved = await s.call<{ media: { id: string; key: string; url: string } }>('POST', `/api/hf/jobs/${job.id}/save`, { auth: token });
      expect(saved.status).toBe(200);
      expect(saved.body.media.key).toMatch(/^library\/med_/);
      const copy = await fetch(saved.body.media.url);
      expect(Buffer.from(await copy.arrayBuffer())).toEqual(bytes);
    }
  });

  it('refuses a tampered signature (403) and an expired url (410)', async () => {
    const sub = await s.call<{ job: JobView }>('POST', '/api/hf/generate', { auth: token, body: { model: 'studio/image-v1', prompt: 'x' } });
    const job = await untilDone(sub.body.job.id);
    const url = new URL(job.results[0].url);
    url.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 1));
    expect((await fetch(url)).status).toBe(403);
    const name = job.results[0].url.split('/files/platform/')[1].split('?')[0];
    const expired = signedFileUrl(s.ctx, 'platform', name, -1000);
    expect((await fetch(expired)).status).toBe(410);
    expect((await fetch(`${s.url}/files/platform/${name}`)).status).toBe(403);
    expect((await fetch(`${s.url}/files/secrets/studio.db?exp=1&sig=x`)).status).toBe(404);
  });

  it('saving a completed job whose result url has expired answers 410 and stores nothing', async () => {
    const sub = await s.call<{ job: JobView }>('POST', '/api/hf/generate', { auth: token, body: { model: 'studio/image-v1', prompt: 'late' } });
    const job = await untilDone(sub.body.job.id);
    const name = job.results[0].url.split('/files/platform/')[1].split('?')[0];
    await s.run('UPDATE jobs SET results = ? WHERE id = ?', JSON.stringify([{ type: 'image', url: signedFileUrl(s.ctx, 'platform', name, -1) }]), job.id);
    const r = await s.call('POST', `/api/hf/jobs/${job.id}/save`, { auth: token });
    expect(r.status).toBe(410);
    expect(await s.get('SELECT COUNT(*) AS n FROM media WHERE job_id = ?', job.id)).toEqual({ n: 0 });
  });
});

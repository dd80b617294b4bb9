import { randomBytes } from 'node:crypto';
import { guardedFetch, OutboundError, type OutboundResponse } from '../core/security/ssrf';
import { chmod, copyFile, writeFile } from 'node:fs/promises';
import { privateDir } from '../core/security/private-files';
import { join } from 'node:path';
import { conflict, gone, notFound, unavailable, upstreamFailed } from '../core/errors';
import type { StudioContext } from './context';
import { nowIso } from './db';
import { insertMedia, jobWithMedia, listMedia as mediaRows } from './repositories/jobs.repository';
import type { MediaRow } from './schema';
import { jobNotCompleted, type JobResult } from './jobs';
import { checkFileSignature, signedFileUrl } from './media';

const MAX_BYTES = 200 * 1024 * 1024;
const EXT_BY_TYPE: Record<string, string> = {
  'image/png': 'png', 'image/apng': 'apng', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif',
  'video/mp4': 'mp4', 'video/webm': 'webm', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mpeg': 'mp3', 'audio/ogg': 'ogg',
};
const FALLBACK_EXT: Record<JobResult['type'], string> = { image: 'png', video: 'mp4', audio: 'wav' };

export function mediaView(app: StudioContext, m: MediaRow) {
  return { id: m.id, key: m.key, url: signedFileUrl(app, 'library', m.key.replace(/^library\//, '')), type: m.type, job_id: m.job_id, created_at: m.created_at };
}

export async function listMedia(app: StudioContext, ws: number) {
  return (await mediaRows(app.db, ws)).map((m) => mediaView(app, m));
}

const expired = () => gone('result expired', { message: 'The result url has expired; the generation can no longer be saved.' });

/** Bring one result's bytes: from the built-in platform's folder directly, else over HTTP. */
async function fetchResult(app: StudioContext, url: string, localName: string | null): Promise<{ data: Buffer | null; from: string | null; ext: string | null }> {
  if (localName) return { data: null, from: join(app.config.dataDir, 'platform', localName), ext: localName.split('.').pop() ?? null };
  let res: OutboundResponse;
  try {
    // The url comes from the platform's answer: same outbound guard as every other request (pinned, re-checked per hop, capped while streaming).
    res = await guardedFetch(url, {}, { allowInternal: app.outboundAllowInternal, timeoutMs: 60_000, maxBytes: MAX_BYTES });
  } catch (err) {
    if (err instanceof OutboundError && err.kind === 'too_large') throw upstreamFailed('result unavailable', { message: 'The result is too large.' });
    throw upstreamFailed('result unavailable', { message: `The result could not be downloaded: ${(err as Error).message}` });
  }
  if (res.status === 403 || res.status === 410) throw expired();
  if (!res.ok) throw upstreamFailed('result unavailable', { message: `The result could not be downloaded (${res.status}).` });
  const data = res.body;
  const type = (res.headers['content-type'] ?? '').split(';')[0].trim();
  return { data, from: null, ext: EXT_BY_TYPE[type] ?? null };
}

/** A url of the built-in platform's files: its file name once the signature is checked. */
function localFile(app: StudioContext, url: string): string | null {
  const prefix = `${app.publicUrl}/files/platform/`;
  if (!url.startsWith(prefix)) return null;
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice('/files/platform/'.length));
  const check = checkFileSignature(app, 'platform', name, u.searchParams.get('exp') ?? undefined, u.searchParams.get('sig') ?? undefined);
  if (check === 'expired') throw expired();
  return check === 'ok' && /^[\w.-]+$/.test(name) ? name : null;
}

const saving = new Map<string, Promise<ReturnType<typeof mediaView>[]>>();

/** Copy a completed job's media into the workspace's library (once; saving again answers the same records). */
export function saveJob(app: StudioContext, ws: number, id: string): Promise<ReturnType<typeof mediaView>[]> {
  const key = `${ws}:${id}`;
  const running = saving.get(key);
  if (running) return running;
  const p = copyIntoLibrary(app, ws, id).finally(() => saving.delete(key));
  saving.set(key, p);
  return p;
}

async function copyIntoLibrary(app: StudioContext, ws: number, id: string) {
  const row = await jobWithMedia(app.db, ws, id);
  if (!row) throw notFound('job not found');
  if (row.status !== 'completed') throw jobNotCompleted(row.status);
  if (row.media.length) return row.media.map((m) => mediaView(app, m));
  const results = JSON.parse(row.results) as JobResult[];
  if (!results.length) throw conflict('job has no results');
  const dir = join(app.config.dataDir, 'library');
  privateDir(dir);
  const saved: MediaRow[] = [];
  for (const r of results) {
    const got = await fetchResult(app, r.url, localFile(app, r.url));
    const mid = `med_${randomBytes(8).toString('hex')}`;
    const file = `${mid}.${got.ext ?? FALLBACK_EXT[r.type]}`;
    if (got.from) {
      await copyFile(got.from, join(dir, file));
      await chmod(join(dir, file), 0o600);
    } else if (got.data) await writeFile(join(dir, file), got.data, { mode: 0o600 });
    saved.push({ id: mid, key: `library/${file}`, type: r.type, job_id: id, created_at: nowIso() });
  }
  await insertMedia(app.db, ws, saved);
  return saved.map((m) => mediaView(app, m));
}

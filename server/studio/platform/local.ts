import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { privateDir } from '../../core/security/private-files';
import { join } from 'node:path';
import { modelById } from '../catalog';
import { PlatformError, type Platform, type PlatformStatus, type Submitted } from './platform';
import { makeApng, makePng, makeWav, SIZES } from './media-gen';

interface LocalRequest {
  model: string;
  body: Record<string, unknown>;
  at: number;
  cancelled: boolean;
  file?: string;
}

export interface LocalPlatformOptions {
  /** Folder the requests and generated files live in. */
  dir: string;
  /** Time from submit to completion. */
  durationMs: number;
  /** A signed, expiring url for a generated file. */
  urlFor: (file: string) => string;
}

const ID = /^lp_[0-9a-f]{16}$/;

/**
 * The built-in platform for installs without a platform key: the same queue API in-process,
 * finishing each request after `durationMs` with real media (PNG, WAV, animated PNG for video).
 */
export class LocalPlatform implements Platform {
  readonly name = 'local' as const;

  constructor(private readonly opts: LocalPlatformOptions) {
    privateDir(opts.dir);
  }

  private file(id: string): string {
    return join(this.opts.dir, `${id}.json`);
  }

  private read(url: string): { id: string; req: LocalRequest } {
    const id = url.replace(/^local:\/\/(status|cancel)\//, '');
    if (!ID.test(id) || !existsSync(this.file(id))) throw new PlatformError('Unknown request.', 404);
    return { id, req: JSON.parse(readFileSync(this.file(id), 'utf8')) as LocalRequest };
  }

  async submit(model: string, body: Record<string, unknown>): Promise<Submitted> {
    if (!modelById(model)) throw new PlatformError(`Unknown model ${model}.`, 404);
    const id = `lp_${randomBytes(8).toString('hex')}`;
    const req: LocalRequest = { model, body, at: Date.now(), cancelled: false };
    writeFileSync(this.file(id), JSON.stringify(req), { mode: 0o600 });
    return { request_id: id, status: 'queued', status_url: `local://status/${id}`, cancel_url: `local://cancel/${id}` };
  }

  async status(statusUrl: string): Promise<PlatformStatus> {
    const { id, req } = this.read(statusUrl);
    if (req.cancelled) return { request_id: id, status: 'failed', error: 'Cancelled.' };
    const elapsed = Date.now() - req.at;
    if (elapsed < this.opts.durationMs * 0.2) return { request_id: id, status: 'queued' };
    if (elapsed < this.opts.durationMs) return { request_id: id, status: 'in_progress' };
    if (!req.file) {
      req.file = this.render(id, req);
      writeFileSync(this.file(id), JSON.stringify(req), { mode: 0o600 });
    }
    const url = this.opts.urlFor(req.file);
    const surface = modelById(req.model)?.surface;
    if (surface === 'video') return { request_id: id, status: 'completed', video: { url } };
    if (surface === 'audio') return { request_id: id, status: 'completed', audio: { url } };
    return { request_id: id, status: 'completed', images: [{ url }] };
  }

  async cancel(cancelUrl: string): Promise<void> {
    const { id, req } = this.read(cancelUrl);
    req.cancelled = true;
    writeFileSync(this.file(id), JSON.stringify(req), { mode: 0o600 });
  }

  private render(id: string, req: LocalRequest): string {
    const surface = modelById(req.model)?.surface ?? 'image';
    const seed = `${req.model}\n${String(req.body.prompt ?? '')}\n${String(req.body.seed ?? '')}`;
    const [w, h] = SIZES[String(req.body.aspect_ratio ?? '1:1')] ?? SIZES['1:1'];
    let name: string;
    let data: Buffer;
    if (surface === 'audio') {
      name = `${id}.wav`;
      data = makeWav(seed, Math.min(30, Number(req.body.duration ?? 5)));
    } else if (surface === 'video') {
      name = `${id}.apng`;
      data = makeApng(seed, Math.round(w / 2), Math.round(h / 2), 12, Math.min(10, Number(req.body.duration ?? 5)));
    } else {
      name = `${id}.png`;
      data = makePng(seed, w, h);
    }
    writeFileSync(join(this.opts.dir, name), data, { mode: 0o600 });
    return name;
  }
}

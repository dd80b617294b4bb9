import { sign, verify } from '../core/security/signing';
import type { StudioContext } from './context';

const KIND = 'studio-file';
/** Folders under the data dir that signed urls may point into. */
export const FILE_AREAS = ['platform', 'library'] as const;
export type FileArea = (typeof FILE_AREAS)[number];

export const CONTENT_TYPES: Record<string, string> = { png: 'image/png', apng: 'image/apng', wav: 'audio/wav' };

/** `{publicUrl}/files/<area>/<name>?exp=<ms>&sig=<mac>`: anyone holding it may fetch the file until it expires. */
export function signedFileUrl(app: StudioContext, area: FileArea, name: string, ttlMs = app.config.signedUrlMs): string {
  const exp = Date.now() + ttlMs;
  const token = sign(app.urlSecret, KIND, `${area}/${name}:${exp}`);
  const sig = token.slice(token.lastIndexOf('.') + 1);
  return `${app.publicUrl}/files/${area}/${encodeURIComponent(name)}?exp=${exp}&sig=${sig}`;
}

export type UrlCheck = 'ok' | 'expired' | 'invalid';
export function checkFileSignature(app: StudioContext, area: string, name: string, exp: unknown, sig: unknown): UrlCheck {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,15}$/.test(exp)) return 'invalid';
  if (!verify(app.urlSecret, KIND, `${area}/${name}:${exp}.${sig}`)) return 'invalid';
  return Number(exp) < Date.now() ? 'expired' : 'ok';
}

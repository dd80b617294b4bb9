import { badRequest } from '../../core/errors';

/** Largest identity document accepted (decoded bytes; the JSON body itself is capped at 1 MB). */
const MAX_KYC_BYTES = 700 * 1024;

function sniff(data: Buffer): string | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (data.length > 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length > 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

/** A government ID as base64 (or a data URL): only a real PNG, JPEG, WebP or PDF is accepted, by its bytes. */
export function decodeDocument(document: string, _declaredMime?: string): { mime: string; data: Buffer } {
  const m = /^data:([\w/+.-]+);base64,(.*)$/s.exec(document.trim());
  const b64 = (m ? m[2] : document).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) throw badRequest('document: not valid base64');
  const data = Buffer.from(b64, 'base64');
  if (data.length === 0) throw badRequest('document is required');
  if (data.length > MAX_KYC_BYTES) throw badRequest(`document: at most ${MAX_KYC_BYTES / 1024} KB`);
  const mime = sniff(data);
  if (!mime) throw badRequest('document must be an image (PNG, JPEG, WebP) or a PDF');
  return { mime, data };
}

/** Helpers of the certificate signature tests (test code only). */
import { createHash } from 'node:crypto';
import { canonicalize } from './jcs';
import jsQR from 'jsqr';
import { PDFDocument, PDFDict, PDFName, PDFRawStream, decodePDFRawStream, PDFRef } from 'pdf-lib';
import { inflateSync } from 'node:zlib';
import type { Client, TestServer } from '../../testing/harness.testkit';
import { readPdfProof } from './cert-pdf-proof';

export async function fetchPdf(server: TestServer, client: Client, no: string): Promise<Uint8Array> {
  const res = await fetch(`${server.url}/api/cert/${encodeURIComponent(no)}/pdf`, { headers: { cookie: `kit_tid=${client.cookie('kit_tid')}` } });
  if (res.status !== 200) throw new Error(`pdf ${no}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The certificate.json a PDF attaches. */
export async function attachment(bytes: Uint8Array): Promise<{ record: Record<string, unknown>; jws: string; kid: string }> {
  const { proof } = await readPdfProof(bytes);
  if (!proof) throw new Error('no certificate.json');
  return proof as { record: Record<string, unknown>; jws: string; kid: string };
}

/** Decode every image of the first page with jsQR: the texts of the QR codes printed on it. */
export async function qrTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const w = Number(obj.dict.get(PDFName.of('Width'))?.toString());
    const h = Number(obj.dict.get(PDFName.of('Height'))?.toString());
    const cs = obj.dict.get(PDFName.of('ColorSpace'));
    const comps = cs === PDFName.of('DeviceGray') ? 1 : 3;
    const bpc = Number(obj.dict.get(PDFName.of('BitsPerComponent'))?.toString());
    if (bpc !== 8) continue;
    const raw = decodePDFRawStream(obj).decode();
    // pdf-lib stores PNG pixels flate-compressed (no predictor for its embedder); both read here.
    const px = raw.length >= w * h * comps ? raw : inflateSync(raw);
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let i = 0; i < w * h; i += 1) {
      const [r, g, b] = comps === 1 ? [px[i], px[i], px[i]] : [px[i * 3], px[i * 3 + 1], px[i * 3 + 2]];
      rgba.set([r, g, b, 255], i * 4);
    }
    // A quiet zone around the code, as on paper.
    const pad = 16;
    const W = w + pad * 2;
    const H = h + pad * 2;
    const framed = new Uint8ClampedArray(W * H * 4).fill(255);
    for (let y = 0; y < h; y += 1) framed.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), ((y + pad) * W + pad) * 4);
    const code = jsQR(framed, W, H);
    if (code) out.push(code.data);
  }
  return out;
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Replace the certificate.json of a PDF (an attacker's edit), saved as a fresh file. */
export async function withAttachment(bytes: Uint8Array, json: unknown): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const names = doc.catalog.lookup(PDFName.of('Names'), PDFDict);
  const files = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = files.lookup(PDFName.of('Names'));
  const arr = (list as unknown as { asArray(): unknown[] }).asArray();
  const spec = doc.context.lookup(arr[1] as PDFRef, PDFDict);
  const ef = spec.lookup(PDFName.of('EF'), PDFDict);
  const ref = ef.get(PDFName.of('F')) as PDFRef;
  const stream = doc.context.flateStream(Buffer.from(JSON.stringify(json)), { Type: 'EmbeddedFile', Subtype: 'application/json' });
  doc.context.assign(ref, stream);
  return doc.save({ updateFieldAppearances: false });
}

/** The payload of a compact JWS, read independently of the code under test. */
export const jwsPayload = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
/** base64url SHA-256 of the canonical (RFC 8785) form of a JWS's payload: the `d` of a verification URL. */
export const jwsDigest = (jws: string) => createHash('sha256').update(canonicalize(jwsPayload(jws))).digest('base64url');


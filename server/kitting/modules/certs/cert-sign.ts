import { createHash } from 'node:crypto';
import { CompactSign } from 'jose';
import { canonicalize } from './jcs';
import type { SigningKey } from './cert-keys';
import type { CertData } from './certs.service';

/** What a certificate's signature covers (RFC 8785 canonical JSON of this object is the JWS payload). */
export interface CertRecord {
  v: 1;
  type: 'erasure-certificate';
  /** The issuing workspace: its published keys are the ones this record verifies against. */
  ws: string;
  no: string;
  date: string;
  issuedAt: string;
  customer: string;
  count: number;
  /** NIST SP 800-88 Rev.1 category (Clear / Purge / Destroy) and the technique used. */
  method: { category: string; technique: string; key: string };
  tool: { name: string; version: string | null } | null;
  verification: { method: string; result: string | null } | null;
  operator: string;
  validator: string | null;
  site: string | null;
  issuer: { name: string; addr: string; tel: string; regno: string; rep: string };
  devices: { imei: string | null; serial: string | null; model: string | null; storage: string | null }[];
}

/** The optional details an issue request may add (never invented when absent). */
export interface CertDetails {
  tool?: string;
  toolVersion?: string;
  verifyMethod?: string;
  verifyResult?: string;
  validator?: string;
  site?: string;
}

export interface CertSignature {
  alg: 'EdDSA';
  kid: string;
  jws: string;
}

/** `{record, jws, kid}`: what the PDF attaches as certificate.json and what verification reads. */
export interface CertProof {
  record: CertRecord;
  jws: string;
  kid: string;
}

export const SIGNATURE_TYPE = 'kitting-cert+jws';

const orNull = (v: string | undefined | null) => (typeof v === 'string' && v !== '' ? v : null);
const IMEI = /^\d{14,16}$/;

/** The signed record of a certificate as issued (the bench's workspace and the certificate's own fields). */
export function certRecord(ws: string, c: Omit<CertData, 'devices'> & CertDetails & { devices: (CertData['devices'][number] & { serial?: string })[] }): CertRecord {
  return {
    v: 1,
    type: 'erasure-certificate',
    ws,
    no: c.no,
    date: c.date,
    issuedAt: new Date(c.issuedAt).toISOString(),
    customer: c.cust,
    count: c.count,
    method: { category: c.nist, technique: c.method, key: c.methodKey },
    tool: c.tool ? { name: c.tool, version: orNull(c.toolVersion) } : null,
    verification: c.verifyMethod ? { method: c.verifyMethod, result: orNull(c.verifyResult) } : null,
    operator: c.operator,
    validator: orNull(c.validator),
    site: orNull(c.site),
    issuer: { name: c.issuer.name, addr: c.issuer.addr, tel: c.issuer.tel, regno: c.issuer.regno, rep: c.issuer.rep },
    devices: c.devices.map((d) => {
      // The listed id is an IMEI when it reads as one, else the device's serial number.
      const imei = IMEI.test(d.id) ? d.id : null;
      return { imei, serial: orNull(d.serial) ?? (imei ? null : orNull(d.id)), model: orNull(d.model), storage: orNull(d.storage) };
    }),
  };
}

/** base64url SHA-256 of the canonical record: the `d` of the verification URL. */
export function recordDigest(record: unknown): string {
  return createHash('sha256').update(canonicalize(record), 'utf8').digest('base64url');
}

/** Sign a record with this machine's key: compact JWS (EdDSA) over its canonical form. */
export async function signRecord(record: CertRecord, key: SigningKey): Promise<{ signature: CertSignature; d: string }> {
  const payload = new TextEncoder().encode(canonicalize(record));
  const jws = await new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: SIGNATURE_TYPE }).sign(key.privateKey);
  return { signature: { alg: 'EdDSA', kid: key.kid, jws }, d: recordDigest(record) };
}

/** The record a compact JWS carries (not verified: callers verify before they trust it). */
export function payloadOf(jws: string): unknown {
  const parts = jws.split('.');
  if (parts.length !== 3) return null;
  try {
    return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Short fingerprint of a signature printed in the PDF footer: SHA-256 of the JWS signature, 16 hex digits in groups. */
export function signatureFingerprint(jws: string): string {
  const sig = jws.split('.')[2] ?? '';
  const hex = createHash('sha256').update(Buffer.from(sig, 'base64url')).digest('hex').slice(0, 16).toUpperCase();
  return hex.match(/.{4}/g)?.join(' ') ?? hex;
}

/** `<public url>/verify/<no>?d=<digest>`; null while the public address is unknown. */
export function verifyUrlOf(publicUrl: string | null, no: string, d: string): string | null {
  return publicUrl ? `${publicUrl}/verify/${encodeURIComponent(no)}?d=${d}` : null;
}

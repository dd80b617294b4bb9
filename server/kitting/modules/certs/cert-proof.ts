import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { canonicalize } from './jcs';
import type { PublishedKey } from './cert-keys';
import { payloadOf, recordDigest, SIGNATURE_TYPE, type CertRecord } from './cert-sign';

/**
 * Checking a signed certificate against published keys, without any server: the central verification
 * routes and the offline verifier (npm run cert:verify) both answer through this.
 */
export type ProofFailure =
  | 'malformed'
  | 'kid_mismatch'
  | 'unknown_key'
  | 'signature_invalid'
  | 'record_differs'
  | 'key_retired';

export type ProofCheck =
  | { ok: true; record: CertRecord; d: string; key: PublishedKey }
  | { ok: false; reason: ProofFailure; record: CertRecord | null };

const REASONS_JA: Record<ProofFailure, string> = {
  malformed: '署名データの形式が正しくありません',
  kid_mismatch: '鍵IDが署名と一致しません',
  unknown_key: 'このワークスペースが公開している鍵では署名されていません',
  signature_invalid: '署名が証明書データと一致しません（改ざんの可能性があります）',
  record_differs: '添付された証明書データが署名された内容と一致しません（改ざんの可能性があります）',
  key_retired: '廃止済みの鍵で、廃止後に署名されています',
};
export const proofReasonJa = (r: ProofFailure | string) => REASONS_JA[r as ProofFailure] ?? r;

function asRecord(v: unknown): CertRecord | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const r = v as Partial<CertRecord>;
  return r.type === 'erasure-certificate' && typeof r.ws === 'string' && typeof r.no === 'string' && typeof r.issuedAt === 'string' ? (r as CertRecord) : null;
}

/**
 * Verify `{record?, jws, kid?}` against the keys the record's workspace publishes. A retired key
 * verifies only what it signed before its retirement (`retiredOk` lets central accept one it holds).
 */
export async function checkProof(
  proof: { record?: unknown; jws: string; kid?: string },
  keysOf: (ws: string) => Promise<PublishedKey[]>,
  opts: { retiredOk?: (d: string, key: PublishedKey) => Promise<boolean> } = {},
): Promise<ProofCheck> {
  const signed = asRecord(payloadOf(proof.jws));
  if (!signed) return { ok: false, reason: 'malformed', record: null };
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof.jws);
  } catch {
    return { ok: false, reason: 'malformed', record: signed };
  }
  if (header.alg !== 'EdDSA' || header.typ !== SIGNATURE_TYPE || typeof header.kid !== 'string') return { ok: false, reason: 'malformed', record: signed };
  if (proof.kid !== undefined && proof.kid !== header.kid) return { ok: false, reason: 'kid_mismatch', record: signed };
  const key = (await keysOf(signed.ws)).find((k) => k.kid === header.kid);
  if (!key) return { ok: false, reason: 'unknown_key', record: signed };
  let payload: Uint8Array;
  try {
    const pub = await importJWK({ kty: key.kty, crv: key.crv, x: key.x }, 'EdDSA');
    ({ payload } = await compactVerify(proof.jws, pub, { algorithms: ['EdDSA'] }));
  } catch {
    return { ok: false, reason: 'signature_invalid', record: signed };
  }
  const text = new TextDecoder().decode(payload);
  // The signed bytes are the record's canonical form; an attached record must be that same record.
  let canonical: string | null = null;
  try {
    canonical = canonicalize(signed);
  } catch {
    canonical = null;
  }
  if (canonical !== text) return { ok: false, reason: 'malformed', record: signed };
  if (proof.record !== undefined) {
    let same = false;
    try {
      same = canonicalize(proof.record) === text;
    } catch {
      same = false;
    }
    if (!same) return { ok: false, reason: 'record_differs', record: signed };
  }
  const d = recordDigest(signed);
  if (key.retiredAt) {
    const before = Date.parse(signed.issuedAt) < Date.parse(key.retiredAt);
    const accepted = opts.retiredOk ? await opts.retiredOk(d, key) : before;
    if (!accepted) return { ok: false, reason: 'key_retired', record: signed };
  }
  return { ok: true, record: signed, d, key };
}

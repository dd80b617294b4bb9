/** Wire contract of certificate signatures: published keys, public verification and revocation. */
import { z } from 'zod';
import { num, ok, optStr, str } from '../primitives';

/** Most base64 characters of a PDF sent for verification (about 6 MB of PDF). */
export const VERIFY_FILE_MAX = 8_200_000;
export const VERIFY_STATUSES = ['valid', 'revoked', 'mismatch', 'unknown'] as const;
export type VerifyStatus = (typeof VERIFY_STATUSES)[number];

export const CertSignature = z.looseObject({ alg: z.literal('EdDSA'), kid: str, jws: str });
export const PublishedKey = z.looseObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: str,
  kid: str,
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
  bench: optStr,
  retired: z.literal(true).optional(),
  retiredAt: optStr,
});
export const CertRevocation = z.looseObject({ reason: str, at: num, by: optStr });

/** The answer of GET and POST /api/public/verify. */
export const VerifyAnswer = z.looseObject({
  status: z.enum(VERIFY_STATUSES),
  /** The signed record with the number the certificate has now (formerNo: the one it was signed and printed under). */
  certificate: z.looseObject({ no: str, formerNo: optStr, record: z.looseObject({}) }).nullable(),
  issuer: z.looseObject({ workspaceName: str.nullable(), bench: str.nullable(), kid: str }).nullable(),
  issuedAt: str.nullable(),
  revoked: z.looseObject({ reason: str, at: str }).optional(),
  /** False when the signature checks out but central has not received the certificate yet. */
  synced: z.boolean().optional(),
  /** Why a certificate does not verify (mismatch / unknown). */
  reason: optStr,
  message: optStr,
});

const ws = z.string().trim().min(1, 'ws required').max(80);
const no = z.string().trim().min(1, 'no required').max(60);
const digest = z.string().trim().regex(/^[A-Za-z0-9_-]{43}$/, 'd must be a base64url SHA-256 digest');

export const certVerifyRequests = {
  keys: z.object({ ws }),
  verifyQuery: z.object({ no, d: digest }),
  verifyBody: z.union(
    [
      z.object({ file: z.string().min(1).max(VERIFY_FILE_MAX, 'file too large') }),
      z.object({ record: z.unknown(), jws: z.string().min(1).max(2_000_000), kid: z.string().max(100).optional() }),
    ],
    { error: 'send {file: <PDF as base64>} or {record, jws, kid}' },
  ),
  page: z.object({ no }),
  pageQuery: z.object({ d: z.string().max(100).optional() }),
  revoke: z.object({ reason: z.string().trim().min(1, 'reason required').max(200, 'reason: at most 200 characters') }, { error: 'body must be a JSON object' }),
};

export const certVerifyResponses = {
  keys: ok({ keys: z.array(PublishedKey) }),
  verify: ok(VerifyAnswer.shape),
  revoke: ok({ cert: z.looseObject({ no: str, revoked: CertRevocation }) }),
};

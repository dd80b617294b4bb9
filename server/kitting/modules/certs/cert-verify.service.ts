import type { AppContext } from '../../context';
import { declareLookup } from '../../store/lookups';
import type { Doc } from '../../store/types';
import { P, PLATFORM_WS } from '../platform-collections';
import type { VerifyStatus } from '../../../../shared/api/contracts/cert-verify';
import { homeWorkspace, workspaceKeys, type PublishedKey } from './cert-keys';
import { checkProof, proofReasonJa, type ProofCheck } from './cert-proof';
import { printedMismatch, type PdfPrint, type PdfProof } from './cert-pdf-proof';
import { pdfTasks } from '../documents/pdf-pool';
import { payloadOf, recordDigest, type CertRecord, type CertSignature } from './cert-sign';
import { ERASURE_CERTS } from './certs.service';

/**
 * Public verification: which certificate a digest names (an index on the platform workspace, so a
 * verification URL needs no workspace), and the answer valid / revoked / mismatch / unknown.
 */
const CERT_DIGESTS = 'certDigests';
const BY_NO = declareLookup(CERT_DIGESTS, 'no');
const BY_SIGNED_NO = declareLookup(CERT_DIGESTS, 'signedNo');

export interface VerifyAnswer {
  status: VerifyStatus;
  certificate: { no: string; formerNo?: string; record: CertRecord } | null;
  issuer: { workspaceName: string | null; bench: string | null; kid: string } | null;
  issuedAt: string | null;
  revoked?: { reason: string; at: string };
  synced?: boolean;
  reason?: string;
  message?: string;
}

/** A stored certificate's signature and digest, when it has a well-formed one. */
export function storedSignature(cert: Doc): { signature: CertSignature; d: string } | null {
  const s = cert.signature as Partial<CertSignature> | undefined;
  const d = cert.recordDigest;
  return s && typeof s.jws === 'string' && typeof s.kid === 'string' && typeof d === 'string' ? { signature: { alg: 'EdDSA', kid: s.kid, jws: s.jws }, d } : null;
}

/**
 * Index a certificate of a workspace by its record digest (after issue, and after a bench pushed it).
 * Only a record signed for this workspace is indexed, and an entry never moves to another workspace.
 */
export async function indexCert(app: AppContext, ws: string, cert: Doc): Promise<void> {
  const sig = storedSignature(cert);
  if (!sig) return;
  const record = payloadOf(sig.signature.jws) as Partial<CertRecord> | null;
  if (!record || typeof record.ws !== 'string' || typeof record.no !== 'string') return;
  if (record.ws !== ws && (await homeWorkspace(app, record.ws, sig.signature.kid)) !== ws) return;
  // The digest is the one of the signed payload, never a pushed value taken on trust (no entry squatting).
  let d: string;
  try {
    d = recordDigest(record);
  } catch {
    return;
  }
  if (d !== sig.d) return;
  const no = String(cert.no);
  await app.store.transact(PLATFORM_WS, async (tx) => {
    const cur = await tx.get<Doc>(CERT_DIGESTS, sig.d);
    if (cur && cur.ws !== ws) return;
    if (cur && cur.no === no) return;
    if (cur) await tx.patch(CERT_DIGESTS, sig.d, { no });
    else await tx.put(CERT_DIGESTS, sig.d, { id: sig.d, ws, no, signedNo: record.no, created: Date.now() });
  });
}

/** Index the certificates a bench pushed. */
export async function indexPushedCerts(app: AppContext, ws: string, ids: string[]): Promise<void> {
  for (const id of new Set(ids)) {
    const cert = await app.store.get<Doc>(ws, ERASURE_CERTS, id);
    if (cert) await indexCert(app, ws, cert);
  }
}

/**
 * Index the certificates of a workspace signed under a bench's former standalone id with `kid`, once
 * that alias is registered (a bench enrolled before aliases existed pushed them before central could).
 */
export async function indexAliasCerts(app: AppContext, ws: string, alias: string, kid: string): Promise<void> {
  for (const cert of await app.store.list<Doc>(ws, ERASURE_CERTS)) {
    const sig = storedSignature(cert);
    if (sig?.signature.kid !== kid || (payloadOf(sig.signature.jws) as Partial<CertRecord> | null)?.ws !== alias) continue;
    await indexCert(app, ws, cert);
  }
}

async function workspaceName(app: AppContext, ws: string, record: CertRecord): Promise<string | null> {
  if (record.issuer?.name) return record.issuer.name;
  const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
  return typeof t?.name === 'string' ? t.name : null;
}

const none = (status: VerifyStatus, reason: string, message: string): VerifyAnswer => ({ status, certificate: null, issuer: null, issuedAt: null, reason, message });

function revocationOf(cert: Doc | null): { reason: string; at: string } | undefined {
  const r = cert?.revoked as Doc | undefined;
  return r && typeof r.at === 'number' ? { reason: String(r.reason ?? ''), at: new Date(r.at).toISOString() } : undefined;
}

async function answerFor(app: AppContext, check: Extract<ProofCheck, { ok: true }>, held: { entry: Doc; cert: Doc } | null): Promise<VerifyAnswer> {
  const { record, key } = check;
  const no = held ? String(held.cert.no) : record.no;
  const out: VerifyAnswer = {
    status: 'valid',
    certificate: { no, ...(no !== record.no ? { formerNo: record.no } : {}), record },
    issuer: { workspaceName: await workspaceName(app, record.ws, record), bench: key.bench ?? null, kid: key.kid },
    issuedAt: record.issuedAt,
    synced: held !== null,
  };
  const revoked = revocationOf(held?.cert ?? null);
  if (revoked) Object.assign(out, { status: 'revoked', revoked, message: `この証明書は失効しています（理由: ${revoked.reason}）` });
  return out;
}

/** The certificate central holds under a digest (and in that workspace), or null. */
async function heldCert(app: AppContext, d: string, ws?: string): Promise<{ entry: Doc; cert: Doc } | null> {
  const entry = await app.store.get<Doc>(PLATFORM_WS, CERT_DIGESTS, d);
  if (!entry || (ws !== undefined && entry.ws !== ws)) return null;
  const cert = await app.store.get<Doc>(String(entry.ws), ERASURE_CERTS, String(entry.no));
  const sig = cert ? storedSignature(cert) : null;
  return cert && sig?.d === d ? { entry, cert } : null;
}

const keysOf = (app: AppContext) => (ws: string): Promise<PublishedKey[]> => workspaceKeys(app, ws);

/** GET /api/public/verify?no=&d=: the certificate a printed URL names. */
export async function verifyByNumber(app: AppContext, no: string, d: string): Promise<VerifyAnswer> {
  const held = await heldCert(app, d);
  if (!held) {
    const numbered = (await app.store.find(PLATFORM_WS, CERT_DIGESTS, BY_NO.field, no)).length + (await app.store.find(PLATFORM_WS, CERT_DIGESTS, BY_SIGNED_NO.field, no)).length;
    return numbered > 0
      ? none('mismatch', 'digest_mismatch', '証明書の内容が登録されているものと一致しません（改ざんの可能性があります）')
      : none('unknown', 'not_found', 'この証明書はまだ登録されていません（作業台からの同期前の可能性があります）');
  }
  if (held.cert.no !== no && held.cert.formerNo !== no && held.entry.signedNo !== no) {
    return none('mismatch', 'number_mismatch', '証明書番号が証明書の内容と一致しません');
  }
  const sig = storedSignature(held.cert) as { signature: CertSignature; d: string };
  // What central holds verifies too (a retired bench's certificates it received before its retirement).
  const check = await checkProof({ jws: sig.signature.jws }, keysOf(app), { retiredOk: async () => true });
  if (!check.ok) return none('mismatch', check.reason, proofReasonJa(check.reason));
  if (check.d !== d) return none('mismatch', 'digest_mismatch', '証明書の内容が登録されているものと一致しません（改ざんの可能性があります）');
  return answerFor(app, check, held);
}

/** POST /api/public/verify: a PDF (its certificate.json and its print) or `{record, jws, kid}`. */
export async function verifyProof(app: AppContext, input: { file: string } | PdfProof): Promise<VerifyAnswer> {
  let proof: PdfProof;
  let print: PdfPrint | null = null;
  if ('file' in input) {
    // Parsing a PDF and extracting its text take CPU time: the worker pool does it, not the event loop.
    const read = await pdfTasks.inspectProof(new Uint8Array(Buffer.from(input.file, 'base64')));
    if (!read.readable) return none('mismatch', 'not_a_pdf', 'PDF として読み取れません');
    if (!read.proof || !read.print) return none('mismatch', 'no_signature', 'この PDF には署名された証明書データ（certificate.json）が添付されていません');
    proof = read.proof;
    print = read.print;
  } else {
    proof = input;
  }
  const home = async (signed: Partial<CertRecord> | null, kid: string) => (typeof signed?.ws === 'string' ? homeWorkspace(app, signed.ws, kid) : null);
  const retiredOk = async (d: string, key: PublishedKey) => {
    const signed = payloadOf(proof.jws) as Partial<CertRecord> | null;
    const ws = await home(signed, key.kid);
    return ws !== null && (await heldCert(app, d, ws)) !== null;
  };
  const check = await checkProof(proof, keysOf(app), { retiredOk });
  if (!check.ok) return none('mismatch', check.reason, proofReasonJa(check.reason));
  if (print) {
    const printed = printedMismatch(print, check.record);
    if (printed) return none('mismatch', printed, 'PDF の印字内容が署名された証明書データと一致しません（署名後に編集されています）');
  }
  return answerFor(app, check, await heldCert(app, check.d, (await home(check.record, check.key.kid)) ?? check.record.ws));
}

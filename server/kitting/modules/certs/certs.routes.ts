import { jstDate, jstYear } from '../../../../shared/dates';
import { limitHeavy, pdfRenderers } from '../documents/pdf-pool';
import type { AppContext } from '../../context';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import { readCompanyTx } from '../settings/settings.service';
import { recordErasure } from './cert-erasure';
import type { CertPdfProof } from './cert-pdf';
import { certPublicUrl, ensureOwnKeyPublished } from './cert-keys';
import { certRecord, payloadOf, signRecord, verifyUrlOf, type CertRecord } from './cert-sign';
import { indexCert, storedSignature } from './cert-verify.service';
import { certVerifyRequests, certVerifyResponses } from '../../../../shared/api/contracts/cert-verify';
import { actorOf } from '../../security/auth';
import type { Doc } from '../../store/types';
import {
  certDigest,
  CERT_NUMBERS,
  ERASURE_CERTS,
  isMethodKey,
  METHODS,
  newestFirst,
  type CertData,
  type CertDevice,
  type ErasureCert,
} from './certs.service';
import { z } from 'zod';
import { Field } from '../../../../shared/fields';
import { collectionSchema, storedField, derivedDate, derivedInt, derivedObject, derivedText, stamp } from '../../http/collection-schema';
import { CERT_MAX_DEVICES, certDevice, certRequests, certResponses } from '../../../../shared/api/contracts/certs-labels';


const { issue: certBody, params: noParams } = certRequests;

/** A text the issue route stores: trimmed, at most n characters, never blank (cust is required, operator defaults to —). */
const storedText = (n: number) => new Field(z.string().max(n).refine((v) => v !== '' && v.trim() === v, 'value the routes would not store as given'));

/**
 * An erasure certificate as the issue route stores it (keyed by its number): only issuing writes one, so a
 * pushed certificate may carry nothing the route would refuse or rewrite. Method names, issuer, digest and
 * stamps are the server's; formerNo/formerDigest are written when a bench's number is renumbered.
 */
export const certSchema = collectionSchema(
  ERASURE_CERTS,
  {
    cust: storedText(120),
    methodKey: new Field(z.enum(Object.keys(METHODS) as [keyof typeof METHODS])),
    date: storedField(derivedDate(), validDate, 'must be a real YYYY-MM-DD date'),
    count: derivedInt(1),
    devices: new Field(z.array(certDevice).max(CERT_MAX_DEVICES)),
    operator: storedText(60),
  },
  {
    method: derivedText(60),
    nist: derivedText(60),
    issuer: derivedObject(),
    issuedAt: stamp(),
    created: stamp(),
    digest: derivedText(64),
    formerNo: derivedText(60),
    formerDigest: derivedText(64),
    tool: derivedText(80),
    toolVersion: derivedText(40),
    verifyMethod: derivedText(120),
    verifyResult: derivedText(120),
    validator: derivedText(60),
    site: derivedText(120),
    // The signature of the canonical record and its digest (base64url SHA-256): verification checks both.
    signature: new Field(z.object({ alg: z.literal('EdDSA'), kid: z.string().max(64), jws: z.string().max(4_000_000) })),
    recordDigest: new Field(z.string().regex(/^[A-Za-z0-9_-]{43}$/)),
    revoked: new Field(z.object({ reason: z.string().min(1).max(200), at: z.number().int().nonnegative(), by: z.string().max(120).optional() })),
  },
  'no',
);

function validDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function readCount(raw: unknown, devices: CertDevice[]): number {
  if (raw === undefined || raw === null || raw === '') {
    if (devices.length === 0) throw badRequest('count required', { message: '対象台数(count)か機器一覧(devices)を指定してください' });
    return devices.length;
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1) throw badRequest('invalid count', { message: '対象台数(count)は1以上の整数で指定してください' });
  if (n < devices.length) throw badRequest('count mismatch', { message: `対象台数(${n})が機器一覧の件数(${devices.length})より少なくなっています` });
  return n;
}

async function listCerts({ app, ws }: { app: AppContext; ws: string }) {
  const certs = await app.store.list(ws, ERASURE_CERTS);
  certs.sort(newestFirst);
  // Each signed certificate with its verification page (under the number it was signed and printed with).
  const base = await certPublicUrl(app);
  return {
    certs: certs.map((c) => (typeof c.recordDigest === 'string' ? { ...c, verifyUrl: verifyUrlOf(base, String(c.formerNo || c.no), c.recordDigest) } : c)),
  };
}

/** A certificate's signed proof and verification link (null for one issued before signing existed). */
async function proofOf(app: AppContext, cert: Doc): Promise<CertPdfProof | null> {
  const sig = storedSignature(cert);
  const record = sig ? (payloadOf(sig.signature.jws) as CertRecord | null) : null;
  if (!sig || !record) return null;
  // The printed link names the number the certificate was signed (and printed) under.
  return { record, jws: sig.signature.jws, kid: sig.signature.kid, verifyUrl: verifyUrlOf(await certPublicUrl(app), record.no, sig.d) };
}

export const certRoutes = [
  defineRoute({ method: 'get', path: '/api/certs', auth: 'ops:view', response: certResponses.list, handler: listCerts }),
  defineRoute({ method: 'get', path: '/api/erasure/certs', auth: 'ops:view', response: certResponses.list, handler: listCerts }),
  defineRoute({
    method: 'get',
    path: '/api/cert/:no',
    response: certResponses.one,
    auth: 'ops:view',
    params: noParams,
    handler: async ({ app, ws, params }) => {
      // A certificate a bench issued before it was enrolled may have been renumbered (formerNo keeps
      // the number printed on it): such a number still leads the auditor to that certificate.
      const renumbered = (await app.store.list(ws, ERASURE_CERTS))
        .filter((c) => c.formerNo === params.no)
        .map((c) => ({ no: c.no, formerNo: c.formerNo }));
      const cert = (await app.store.get(ws, ERASURE_CERTS, params.no)) ?? (renumbered[0] ? await app.store.get(ws, ERASURE_CERTS, String(renumbered[0].no)) : null);
      if (!cert) throw notFound('cert not found');
      const proof = await proofOf(app, cert);
      const signed = proof ? { signature: { alg: 'EdDSA' as const, kid: proof.kid, jws: proof.jws }, verifyUrl: proof.verifyUrl } : {};
      return renumbered.length > 0 ? { cert, renumbered, ...signed } : { cert, ...signed };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/cert/:no/pdf',
    produces: 'application/pdf',
    auth: 'ops:view',
    params: noParams,
    handler: async ({ app, ws, req, params }) => {
      await limitHeavy(app, ws, req.ip);
      const cert = await app.store.get<ErasureCert>(ws, ERASURE_CERTS, params.no);
      if (!cert) throw notFound('cert not found');
      const pdf = await pdfRenderers.cert(cert, await proofOf(app, cert));
      return new Reply(200, Buffer.from(pdf), {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${cert.no}.pdf"`,
        'Cache-Control': 'no-store',
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/cert',
    response: certResponses.issue,
    auth: 'ops:edit',
    body: certBody,
    handler: async ({ app, ws, body }) => {
      if (!body.cust) throw badRequest('cust required', { message: '顧客名(cust)を入力してください' });
      const methodKey = body.methodKey === undefined || body.methodKey === null || body.methodKey === '' ? 'purge' : body.methodKey;
      if (!isMethodKey(methodKey)) throw badRequest('invalid methodKey', { message: '消去方式(methodKey)は purge / clear / destroy のいずれかです' });
      const date = body.date === undefined || body.date === null || body.date === '' ? jstDate() : String(body.date);
      if (!validDate(date)) throw badRequest('invalid date', { message: '実施日(date)は YYYY-MM-DD 形式で指定してください' });
      const devices = body.devices ?? [];
      const count = readCount(body.count, devices);
      const key = await ensureOwnKeyPublished(app, ws);
      const details = { tool: body.tool, toolVersion: body.toolVersion, verifyMethod: body.verifyMethod, verifyResult: body.verifyResult, validator: body.validator, site: body.site };
      const given = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== ''));
      const { cert, erased } = await app.store.transact(ws, async (tx) => {
        const now = Date.now();
        const year = jstYear(now);
        const no = (await issueNumber(tx, CERT_NUMBERS, String(year))).value;
        const company = await readCompanyTx(tx);
        const draft: CertData = {
          no,
          date,
          cust: body.cust,
          count,
          methodKey,
          ...METHODS[methodKey],
          devices,
          operator: body.operator || '—',
          issuer: { name: company.name, addr: company.addr, tel: company.tel, regno: company.regno, rep: company.rep },
          issuedAt: now,
          created: now,
        };
        // Signed where it is issued, online or offline, with this machine's key.
        const { signature, d } = await signRecord(certRecord(ws, { ...draft, ...given }), key);
        const stored = await tx.create(ERASURE_CERTS, no, { ...draft, ...given, digest: certDigest(draft), signature, recordDigest: d });
        return { cert: stored, erased: await recordErasure(tx, draft) };
      });
      await indexCert(app, ws, cert);
      return { cert, erased };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/cert/:no/revoke',
    response: certVerifyResponses.revoke,
    auth: 'manager',
    params: noParams,
    body: certVerifyRequests.revoke,
    handler: async ({ app, ws, params, body, req }) => {
      const actor = actorOf(req);
      const by = actor.kind === 'member' ? (actor.email ?? actor.accountId ?? undefined) : undefined;
      // A revoked certificate stays readable; verification then answers `revoked` with the reason and date.
      const cert = await app.store.transact(ws, async (tx) => {
        const cur = await tx.get<Doc>(ERASURE_CERTS, params.no);
        if (!cur) throw notFound('cert not found');
        if (cur.revoked) throw conflict('already revoked', { message: 'この証明書は失効済みです' });
        return tx.patch<Doc>(ERASURE_CERTS, params.no, { revoked: { reason: body.reason, at: Date.now(), ...(by ? { by } : {}) } });
      });
      return { cert };
    },
  }),
];

import { defineRoute, Reply } from '../../http/define-route';
import { hitLimit } from '../../security/limits';
import { certVerifyRequests, certVerifyResponses } from '../../../../shared/api/contracts/cert-verify';
import { workspaceKeys } from './cert-keys';
import { verifyByNumber, verifyProof, type VerifyAnswer } from './cert-verify.service';
import { VERIFY_PAGE_CSP, verifyPage } from './verify-page';

/**
 * Public certificate verification (no sign-in, rate-limited per address): the workspace's published
 * keys as a JWKS, the answer for a printed number and digest, the answer for a PDF or a signed record,
 * and the page a QR code leads to.
 */
const DIGEST = /^[A-Za-z0-9_-]{43}$/;

export const certPublicRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/public/cert-keys',
    response: certVerifyResponses.keys,
    auth: 'public',
    workspace: false,
    query: certVerifyRequests.keys,
    handler: async ({ app, req, res, query }) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'no-cache');
      await hitLimit(app, 'publicVerify', req.ip);
      return { keys: await workspaceKeys(app, query.ws) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/verify',
    response: certVerifyResponses.verify,
    auth: 'public',
    workspace: false,
    query: certVerifyRequests.verifyQuery,
    handler: async ({ app, req, res, query }) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'no-store');
      await hitLimit(app, 'publicVerify', req.ip);
      return { ...(await verifyByNumber(app, query.no, query.d)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/public/verify',
    response: certVerifyResponses.verify,
    auth: 'public',
    workspace: false,
    body: certVerifyRequests.verifyBody,
    handler: async ({ app, req, res, body }) => {
      res.setHeader('Cache-Control', 'no-store');
      await hitLimit(app, 'publicVerify', req.ip);
      return { ...(await verifyProof(app, body)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/verify/:no',
    produces: 'text/html',
    auth: 'public',
    workspace: false,
    params: certVerifyRequests.page,
    query: certVerifyRequests.pageQuery,
    handler: async ({ app, req, params, query }) => {
      await hitLimit(app, 'publicVerify', req.ip);
      const d = query.d ?? '';
      const answer: VerifyAnswer = DIGEST.test(d)
        ? await verifyByNumber(app, params.no, d)
        : { status: 'unknown', certificate: null, issuer: null, issuedAt: null, reason: 'no_digest', message: 'URL にダイジェスト（d）がありません。証明書の QR コードを読み取り直してください。' };
      return new Reply(200, verifyPage(params.no, answer), {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': VERIFY_PAGE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
      });
    },
  }),
];

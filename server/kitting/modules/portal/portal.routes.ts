import { clip } from '../../../../shared/fields';
import { collectionSchema, derivedInt, derivedText, fixedKeys } from '../../http/collection-schema';
import { DomainError, badRequest, conflict, notFound, upstreamFailed } from '../../../core/errors';
import { workspaceFromCookie } from '../../http/workspace';
import { hitLimit } from '../../security/limits';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import {
  bumpCounter, clientDevices, clientDocuments, ensurePortalForClient, PORTAL_COUNTERS, PORTAL_STATS, PORTALS, portalByNameOrId, portalEntry, portalLinkInvalid, portalReader, portalState, publishedPortalBySlug, readPortalToken,
} from './portal.service';
import { issuePortalLink } from './portal-link';
import { defineRoute, Reply } from '../../http/define-route';
import { renderCertPdf } from '../certs/cert-pdf';
import { renderInvoicePdf } from '../invoices/invoice-pdf';
import { readCompany } from '../settings/settings.service';
import { ERASURE_CERTS, type ErasureCert } from '../certs/certs.service';
import { INVOICES, type Invoice } from '../invoices/invoices.service';
import { portalResponses } from '../../../../shared/api/contracts/accounts';
import { portalFields, portalRequests } from '../../../../shared/api/contracts/platform';

const NO_STORE = 'no-store';

/** Pushed portals pass the portal routes' rules (their slugs are also checked for uniqueness across workspaces). */
export const portalSchema = collectionSchema(PORTALS, portalFields, { name: derivedText(200), slug: derivedText(64), suffix: derivedText(64) });
/** The portal counters are the server's own tallies: no route takes them from a caller. */
export const portalStatsSchema = fixedKeys(collectionSchema(PORTAL_STATS, {}, { _tickets: derivedInt(), _dls: derivedInt() }), [PORTAL_COUNTERS]);
const { inquiry: inquiryBody, issue: issueBody, action: actionBody, actionParams, docParams, docQuery } = portalRequests;

/** Workspace and portal key named by a portal token (or, outside production, a legacy c= name). */
async function resolvePortal(app: Parameters<typeof readPortalToken>[0], t: unknown, legacy: unknown, cookieWs: () => Promise<string | null>) {
  if (typeof t === 'string' && t) {
    const b = await readPortalToken(app, t);
    return { ws: b.tid, key: b.client };
  }
  if (!app.config.production && typeof legacy === 'string' && legacy) {
    const ws = await cookieWs();
    if (!ws) throw notFound('portal_not_found', { code: 'portal_not_found' });
    const p = await portalByNameOrId(portalReader(app, ws), legacy);
    if (!p) throw notFound('portal_not_found', { code: 'portal_not_found' });
    return { ws, key: String(p.id) };
  }
  throw portalLinkInvalid();
}

const cookieWorkspace = (app: Parameters<typeof readPortalToken>[0], req: Parameters<typeof workspaceFromCookie>[1]) => async () => {
  const ws = workspaceFromCookie(app, req);
  return ws && (await app.store.workspace(ws)) ? ws : null;
};

/** 409 before anything is written when another workspace holds this portal's slug. */
async function assertSlugFree(app: Parameters<typeof readPortalToken>[0], ws: string, key: string): Promise<void> {
  const p = key ? await app.store.get<Doc>(ws, PORTALS, key) : null;
  const slug = typeof p?.slug === 'string' ? p.slug : '';
  const cur = slug ? await app.store.get<Doc>(PLATFORM_WS, P.portalSlugs, slug) : null;
  if (cur && cur.tid !== ws) throw conflict('slug taken', { message: 'このスラッグは他のワークスペースで使用されています' });
}

/** Keep the platform index of published portal slugs current (for /api/public/status). */
async function indexSlug(app: Parameters<typeof readPortalToken>[0], ws: string, p: Doc): Promise<void> {
  const slug = String(p.slug ?? '');
  if (!slug) return;
  await app.store.transact(PLATFORM_WS, async (tx) => {
    // A slug is unique across the platform: one another workspace holds is never taken over.
    const cur = await tx.get<Doc>(P.portalSlugs, slug);
    if (cur && cur.tid !== ws) throw conflict('slug taken', { message: 'このスラッグは他のワークスペースで使用されています' });
    await tx.put(P.portalSlugs, slug, { id: slug, tid: ws, key: p.id, published: p.published === true });
  });
}

/** The portal a token names, refused unless it is published (409 as for inquiries). */
async function publishedPortalOf(app: Parameters<typeof readPortalToken>[0], t: unknown): Promise<{ ws: string; p: Doc }> {
  const { ws, key } = await resolvePortal(app, t, undefined, async () => null);
  const p = await portalEntry(app, ws, key);
  if (p.published !== true) throw conflict('portal_unpublished', { code: 'portal_unpublished' });
  return { ws, p };
}

/** The portal download counter (_dls of GET /api/portals) counts every document a customer downloads. */
async function countDownload(app: Parameters<typeof readPortalToken>[0], ws: string): Promise<void> {
  await app.store.transact(ws, (tx) => bumpCounter(tx, '_dls'));
}

function pdfReply(pdf: Uint8Array, name: string): Reply {
  return new Reply(200, Buffer.from(pdf), {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`,
    'Cache-Control': 'no-store',
  });
}

async function latestTickets(app: Parameters<typeof readPortalToken>[0], ws: string, name: string) {
  const all = (await app.store.list(ws, 'tickets')).filter((t) => t.cust === name);
  all.sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0));
  return all.slice(0, 20).map((t) => ({ id: t.id, kind: t.kind, subject: t.subject, status: t.status, created: t.created }));
}

export const portalRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/portals',
    response: portalResponses.portals,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ state: await portalState(app, ws) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/portal/view',
    response: portalResponses.view,
    auth: 'token',
    workspace: false,
    handler: async ({ app, req, res }) => {
      res.setHeader('Cache-Control', NO_STORE);
      const { ws, key } = await resolvePortal(app, req.query.t, req.query.c, cookieWorkspace(app, req));
      const p = await portalEntry(app, ws, key);
      const client = { name: p.name, slug: p.slug };
      if (p.published !== true) return { client, published: false, last: p.last ?? '—' };
      const devices = await clientDevices(app, ws, String(p.name));
      const documents = await clientDocuments(app, ws, String(p.name));
      return { client, published: true, last: p.last ?? '—', devices, tickets: await latestTickets(app, ws, String(p.name)), documents };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/portal/inquiry',
    response: portalResponses.inquiry,
    auth: 'token',
    workspace: false,
    body: inquiryBody,
    handler: async ({ app, req, res, body }) => {
      res.setHeader('Cache-Control', NO_STORE);
      await hitLimit(app, 'publicForm', req.ip);
      const { ws, key } = await resolvePortal(app, req.query.t ?? body.t, undefined, async () => null);
      const message = typeof body.message === 'string' ? clip(body.message.trim(), 2000) : '';
      if (!message) throw badRequest('message_required', { message: 'お問い合わせ内容を入力してください' });
      const p = await portalEntry(app, ws, key);
      if (p.published !== true) throw conflict('portal_unpublished', { code: 'portal_unpublished' });
      const kind = body.kind ?? '問合せ';
      const created = Date.now();
      let ticket: Doc;
      try {
        ticket = await app.store.transact(ws, async (tx) => {
          const id = randomKey('TK-P', 3).toUpperCase();
          const tk = await tx.put('tickets', id, {
            id, cust: p.name, kind, subject: clip(message.split('\n')[0] ?? message, 300), owner: '—', sla: '4h 00m', status: '受付',
            priority: '', created, source: 'portal', contactName: body.name ?? '', contactEmail: body.email ?? '',
          });
          const mid = randomKey('msg-');
          await tx.put('ticketMessages', mid, { id: mid, ticketId: id, from: clip(body.name || String(p.name), 60), text: message, ts: created });
          await bumpCounter(tx, '_tickets');
          return tk;
        });
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw upstreamFailed('ticket_not_created', { code: 'ticket_not_created' });
      }
      return { ref: ticket.id, ticket: { id: ticket.id, status: ticket.status, kind: ticket.kind, cust: ticket.cust }, created };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/portal/issue',
    response: portalResponses.issue,
    auth: 'sales:edit',
    body: issueBody,
    handler: async ({ app, ws, req, body }) => {
      const key = body.custId || body.id || '';
      // A portal key, or a customer (cust-…) whose portal is created, unpublished, when it has none:
      // issuing a link never changes what the portal shows (publishing is the 公開 control alone).
      const portal = await app.store.transact(ws, async (tx) => {
        const cur = key ? await tx.get<Doc>(PORTALS, key) : null;
        if (cur) return cur;
        const customer = key ? await tx.get<Doc>('customers', key) : null;
        const name = typeof customer?.name === 'string' ? customer.name.trim() : '';
        if (!name) throw badRequest('unknown customer', { message: '顧客が見つかりません' });
        return ensurePortalForClient(tx, clip(name, 200), false);
      });
      await assertSlugFree(app, ws, String(portal.id));
      await indexSlug(app, ws, portal);
      const link = await issuePortalLink(app, ws, String(portal.id), `${req.protocol}://${req.get('host') ?? 'localhost'}`);
      return { ...link, portal };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/portal/cert/:id/pdf',
    produces: 'application/pdf',
    auth: 'token',
    workspace: false,
    params: docParams,
    query: docQuery,
    // Read-only, with the portal's own token: only a certificate of that portal's customer, only while published.
    handler: async ({ app, req, params, query }) => {
      await hitLimit(app, 'portalDownload', req.ip);
      const { ws, p } = await publishedPortalOf(app, query.t);
      const cert = await app.store.get<ErasureCert>(ws, ERASURE_CERTS, params.id);
      if (!cert || cert.cust !== p.name) throw notFound('document_not_found', { code: 'document_not_found' });
      await countDownload(app, ws);
      return pdfReply(await renderCertPdf(cert), String(cert.no));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/portal/invoice/:id/pdf',
    produces: 'application/pdf',
    auth: 'token',
    workspace: false,
    params: docParams,
    query: docQuery,
    handler: async ({ app, req, params, query }) => {
      await hitLimit(app, 'portalDownload', req.ip);
      const { ws, p } = await publishedPortalOf(app, query.t);
      const inv = await app.store.get<Invoice>(ws, INVOICES, params.id);
      if (!inv || inv.cust !== p.name || !inv.status || inv.status === 'draft') throw notFound('document_not_found', { code: 'document_not_found' });
      await countDownload(app, ws);
      return pdfReply(await renderInvoicePdf(inv, await readCompany(app.store, ws)), inv.id);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/portal/:custId',
    response: portalResponses.action,
    auth: 'sales:edit',
    params: actionParams,
    body: actionBody,
    handler: async ({ app, ws, params, body }) => {
      const action = body.action ?? 'toggle';
      if (!['toggle', 'ticket', 'dl', 'touch'].includes(String(action))) throw badRequest('unknown action', { message: '不明な操作です' });
      await assertSlugFree(app, ws, params.custId);
      const out = await app.store.transact(ws, async (tx) => {
        const cur = await tx.get<Doc>(PORTALS, params.custId);
        if (!cur) throw notFound('portal not found');
        let fields: Doc = {};
        if (action === 'toggle') {
          const published = body.published ?? cur.published !== true;
          fields = { published, ...(published ? { last: body.last ?? 'たった今' } : {}) };
        } else if (action === 'touch') fields = { last: body.last ?? 'たった今' };
        const counters = action === 'ticket' ? await bumpCounter(tx, '_tickets') : action === 'dl' ? await bumpCounter(tx, '_dls') : await tx.get<Doc>(PORTAL_STATS, PORTAL_COUNTERS);
        const portal = (await tx.patch(PORTALS, params.custId, fields)) as Doc;
        return { portal, tickets: counters?._tickets ?? 0, dls: counters?._dls ?? 0 };
      });
      await indexSlug(app, ws, out.portal);
      return out;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/status',
    response: portalResponses.status,
    auth: 'public',
    workspace: false,
    handler: async ({ app, req, res }) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', NO_STORE);
      await hitLimit(app, 'publicStatus', req.ip);
      const site = req.query.site;
      if (typeof site !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(site)) throw badRequest('invalid site', { message: 'site の形式が正しくありません' });
      const own = await cookieWorkspace(app, req)();
      let hit: { ws: string; p: Doc } | null = null;
      if (own) {
        const p = await publishedPortalBySlug(portalReader(app, own), site);
        if (p) hit = { ws: own, p };
      }
      if (!hit) {
        const idx = await app.store.get<Doc>(PLATFORM_WS, P.portalSlugs, site);
        const p = idx ? await app.store.get<Doc>(String(idx.tid), PORTALS, String(idx.key)) : null;
        if (idx && p && p.published === true && p.slug === site) hit = { ws: String(idx.tid), p };
      }
      if (!hit) throw notFound('not_found', { message: '公開中のポータルが見つかりません' });
      const d = await clientDevices(app, hit.ws, String(hit.p.name));
      const devices = { total: d.total, active: d.active, computed: d.computed, ...(d.computed ? {} : { reason: d.reason }) };
      return {
        site, published: true, status: 'operational', label: '正常稼働', devices,
        lastTouch: hit.p.last ?? '—', generated: Date.now(), total: d.total, active: d.active,
      };
    },
  }),
];

import { MESSAGE_MAX } from '../../../shared/api/contracts/agents-values';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { perIp, route, type AgentRoute } from '../http';
import { widgetConfig } from '../crm/widget';
import { defaultWelcome } from '../agents/agents.service';
import { answerTurn, countryOf, wantsStream } from '../chat/turn';
import { saveCaptured } from '../chat/capture';
import { recordEvent } from '../events';
import { CREDIT_COST } from '../billing';
import { CSV_MAX_ROWS } from '../csv';
import { pageContent } from './content';
import { publicAgent } from './public-agent';
import { platformSettings } from '../platform-settings';
import { newId } from '../ids';
import { Reply } from '../../core/http/route-core';
import { publicResponses } from '../../../shared/api/contracts/agents-public';
import { publicRequests, publicParam } from '../../../shared/api/contracts/agents-public-requests';
const started = Date.now();

/** Operator-set notices the platform UI shows (never a secret setting). */
function announcement(s: Awaited<ReturnType<typeof platformSettings>>) {
  return { announcement: s.announcement, maintenance: s.maintenanceMode, signupsOpen: s.allowSignups, supportEmail: s.supportEmail };
}

export function publicRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/public/:publicId', response: publicResponses['GET /api/public/:publicId'],
      auth: 'public',
      before: perIp(ctx.limits.publicConfig),
      params: publicParam,
      handler: ({ params }) => {
        const a = publicAgent(ctx, params.publicId);
        const w = widgetConfig(a);
        return {
          publicId: a.public_id,
          name: a.name,
          emoji: a.emoji,
          avatar_url: w.avatar_url,
          status: a.status,
          welcome: w.welcome_message,
          // the owner wrote no welcome: the widget greets in the visitor's language (language 'auto')
          welcome_default: w.welcome_message === defaultWelcome(a.name),
          title: w.title,
          subtitle: w.subtitle,
          placeholder: w.placeholder,
          colors: { primary: w.primary_color, accent: w.accent_color, text: w.text_color, background: w.background_color },
          position: w.position,
          theme: w.theme,
          suggestions: w.suggestions,
          collect_leads: w.collect_leads,
          lead_fields: w.lead_fields,
          auto_open: w.auto_open,
          auto_open_delay: w.auto_open_delay,
          show_branding: w.show_branding,
          language: w.language,
        };
      },
    }),
    route({
      method: 'post',
      path: '/api/public/:publicId/chat', response: publicResponses['POST /api/public/:publicId/chat'],
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: publicRequests['POST /api/public/:publicId/chat'].body,
      handler: async ({ params, body, req, res, caller }) => {
        const agent = publicAgent(ctx, params.publicId);
        const input = { agent, message: body.message, conversationId: body.conversationId, channel: 'widget', visitor: body.visitorId ?? caller.ip, country: countryOf(req) };
        return answerTurn(ctx, res, input, wantsStream(req, body), (r) => ({
          reply: r.reply, conversationId: r.conversationId, messageId: r.messageId, engine: r.engine, creditCost: r.reply === null ? 0 : CREDIT_COST, captured: r.captured, handoff: r.handoff,
        }));
      },
    }),
    route({
      method: 'post',
      path: '/api/public/:publicId/lead', response: publicResponses['POST /api/public/:publicId/lead'],
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: publicRequests['POST /api/public/:publicId/lead'].body,
      handler: ({ params, body }) => {
        const agent = publicAgent(ctx, params.publicId);
        if (!body.email && !body.phone) throw badRequest('email or phone is required');
        const ws = agent.workspace_id;
        const cid = body.conversationId ?? null;
        if (cid && !ctx.legacyDb.prepare('SELECT 1 FROM conversations WHERE id = ? AND agent_id = ?').get(cid, agent.id)) throw notFound('conversation not found');
        const lead = ctx.legacyDb.transaction(() => {
          if (cid) {
            const r = saveCaptured(ctx, ws, agent.id, cid, { email: body.email || undefined, phone: body.phone || undefined, name: body.name || undefined });
            if (body.note) ctx.legacyDb.prepare("UPDATE leads SET notes = CASE WHEN notes = '' THEN ? ELSE notes || ? || ? END, source = 'widget' WHERE id = ?").run(body.note, '\n', body.note, r.leadId);
            return r.leadId;
          }
          const now = Date.now();
          const id = newId('ld');
          ctx.legacyDb
            .prepare("INSERT INTO leads (id, workspace_id, agent_id, name, email, phone, notes, status, score, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'new', ?, 'widget', ?, ?)")
            .run(id, ws, agent.id, body.name ?? '', body.email ?? '', body.phone ?? '', body.note ?? '', (body.email ? 40 : 0) + (body.phone ? 30 : 0) + (body.name ? 10 : 0), now, now);
          if (!ctx.legacyDb.prepare(`SELECT 1 FROM contacts WHERE workspace_id = ? AND ${body.email ? 'email' : 'phone'} = ?`).get(ws, body.email || body.phone)) {
            ctx.legacyDb
              .prepare('INSERT INTO contacts (id, workspace_id, agent_id, email, name, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
              .run(newId('ct'), ws, agent.id, body.email ?? '', body.name ?? '', body.phone ?? '', now, now);
          }
          recordEvent(ctx, ws, agent.id, 'lead.captured', { leadId: id, agentId: agent.id, conversationId: null, name: body.name ?? '', email: body.email ?? '', phone: body.phone ?? '', note: body.note ?? '', source: 'widget' });
          return id;
        })();
        return { ok: true, leadId: lead };
      },
    }),
    route({
      method: 'get',
      path: '/api/public/:publicId/poll', response: publicResponses['GET /api/public/:publicId/poll'],
      auth: 'public',
      before: perIp(ctx.limits.publicPoll),
      params: publicParam,
      query: publicRequests['GET /api/public/:publicId/poll'].query,
      handler: ({ params, query }) => {
        const agent = publicAgent(ctx, params.publicId);
        const conv = ctx.legacyDb.prepare('SELECT id, handoff FROM conversations WHERE id = ? AND agent_id = ?').get(query.conversationId, agent.id) as { id: string; handoff: string } | undefined;
        if (!conv) throw notFound('conversation not found');
        let afterSeq = 0;
        if (query.after) {
          const bySeq = ctx.legacyDb.prepare('SELECT seq FROM messages WHERE id = ? AND conversation_id = ?').get(query.after, conv.id) as { seq: number } | undefined;
          if (bySeq) afterSeq = bySeq.seq;
          else if (/^\d+$/.test(query.after)) {
            const t = Number(query.after);
            const row = ctx.legacyDb.prepare('SELECT MAX(seq) AS s FROM messages WHERE conversation_id = ? AND created_at <= ?').get(conv.id, t) as { s: number | null };
            afterSeq = row.s ?? 0;
          } else throw badRequest('after must be a message id or a time in milliseconds');
        }
        const rows = ctx.legacyDb
          .prepare("SELECT id, role, text, created_at FROM messages WHERE conversation_id = ? AND seq > ? AND role = 'operator' ORDER BY seq LIMIT 100")
          .all(conv.id, afterSeq) as { id: string; role: string; text: string; created_at: number }[];
        const last = ctx.legacyDb.prepare('SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1').get(conv.id) as { id: string } | undefined;
        return {
          conversationId: conv.id,
          handoff: conv.handoff,
          messages: rows.map((m) => ({ id: m.id, role: m.role, text: m.text, created_at: new Date(m.created_at).toISOString() })),
          cursor: last?.id ?? null,
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/config', response: publicResponses['GET /api/config'],
      auth: 'public',
      handler: async () => ({
        ...announcement(await platformSettings(ctx.db)),
        name: 'Agent Platform',
        engines: ctx.engines.available(),
        signupCredits: (await platformSettings(ctx.db)).signupCredits ?? ctx.config.signupCredits,
        creditCost: CREDIT_COST,
        sourceTypes: ['text', 'qa', 'file', 'website', 'social'],
        features: { streaming: true, twoFactor: true, widget: true, handoff: true, advisor: true },
        limits: { messageMaxChars: MESSAGE_MAX, bodyBytes: 1024 * 1024, sourceUploadBytes: 12 * 1024 * 1024, advisorBytes: 16 * 1024 * 1024, csvMaxRows: CSV_MAX_ROWS, crawlPages: ctx.config.crawlPageLimit },
      }),
    }),
    route({
      method: 'get',
      path: '/api/content/:page', response: publicResponses['GET /api/content/:page'],
      auth: 'public',
      params: publicRequests['GET /api/content/:page'].params,
      handler: ({ params }) => {
        const c = pageContent(ctx, params.page);
        if (!c) throw notFound('page not found');
        return { page: params.page, title: c.title, sections: c.sections, updated_at: c.updated_at };
      },
    }),
    route({
      method: 'get',
      path: '/api/health', response: publicResponses['GET /api/health'],
      auth: 'public',
      handler: () => {
        try {
          ctx.legacyDb.prepare('SELECT 1').get();
          return { ok: true, db: 'ok', uptime_s: Math.round((Date.now() - started) / 1000) };
        } catch {
          return new Reply(503, JSON.stringify({ ok: false, db: 'error' }), { 'Content-Type': 'application/json' });
        }
      },
    }),
  ];
}

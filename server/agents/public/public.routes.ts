import { MESSAGE_MAX } from '../../../shared/api/contracts/agents-values';
import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { perIp, route, type AgentRoute } from '../http';
import { widgetConfig } from '../crm/widget';
import { defaultWelcome } from '../agents/agents.service';
import { answerTurn, countryOf, wantsStream } from '../chat/turn';
import { CREDIT_COST } from '../billing';
import { CSV_MAX_ROWS } from '../csv';
import { pageContent } from './content';
import { publicAgent } from './public-agent';
import { platformSettings } from '../platform-settings';
import { pollOperator, widgetLead } from './public.service';
import { ping } from './public.repository';
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
      handler: async ({ params }) => {
        const a = await publicAgent(ctx, params.publicId);
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
        const agent = await publicAgent(ctx, params.publicId);
        const input = { agent, message: body.message, conversationId: body.conversationId, channel: 'widget', visitor: body.visitorId ?? caller.ip, country: countryOf(req) };
        return await answerTurn(ctx, res, input, wantsStream(req, body), (r) => ({
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
      handler: async ({ params, body }) => {
        const agent = await publicAgent(ctx, params.publicId);
        const lead = await widgetLead(ctx, agent, body);
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
      handler: async ({ params, query }) => pollOperator(ctx, await publicAgent(ctx, params.publicId), query.conversationId, query.after),
    }),
    route({
      method: 'get',
      path: '/api/config', response: publicResponses['GET /api/config'],
      auth: 'public',
      handler: async () => {
        const settings = await platformSettings(ctx.db);
        return {
        ...announcement(settings),
        name: 'Agent Platform',
        engines: ctx.engines.available(),
        signupCredits: settings.signupCredits ?? ctx.config.signupCredits,
        creditCost: CREDIT_COST,
        sourceTypes: ['text', 'qa', 'file', 'website', 'social'],
        features: { streaming: true, twoFactor: true, widget: true, handoff: true, advisor: true },
        limits: { messageMaxChars: MESSAGE_MAX, bodyBytes: 1024 * 1024, sourceUploadBytes: 12 * 1024 * 1024, advisorBytes: 16 * 1024 * 1024, csvMaxRows: CSV_MAX_ROWS, crawlPages: ctx.config.crawlPageLimit },
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/content/:page', response: publicResponses['GET /api/content/:page'],
      auth: 'public',
      params: publicRequests['GET /api/content/:page'].params,
      handler: async ({ params }) => {
        const c = await pageContent(ctx, params.page);
        if (!c) throw notFound('page not found');
        return { page: params.page, title: c.title, sections: c.sections, updated_at: c.updated_at };
      },
    }),
    route({
      method: 'get',
      path: '/api/health', response: publicResponses['GET /api/health'],
      auth: 'public',
      handler: async () => {
        try {
          await ping(ctx.db);
          return { ok: true, db: 'ok', uptime_s: Math.round((Date.now() - started) / 1000) };
        } catch {
          return new Reply(503, JSON.stringify({ ok: false, db: 'error' }), { 'Content-Type': 'application/json' });
        }
      },
    }),
  ];
}

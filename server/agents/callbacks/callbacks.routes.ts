import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { Request } from 'express';
import { badRequest, forbidden, unauthorized, unavailable } from '../../core/errors';
import { Reply } from '../../core/http/route-core';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { receiveChannelMessage } from '../channels/delivery';
import { connectedAgentOf, firstSighting } from './callbacks.service';
import { callbacksResponses } from '../../../shared/api/contracts/agents-callbacks';
import { callbacksRequests } from '../../../shared/api/contracts/agents-callbacks-requests';

/** Team-chat signatures older (or newer) than this are refused, and a signature is accepted once within it. */
const REPLAY_WINDOW_S = 300;
const CALLBACK_PATHS = ['/api/slack/events', '/api/whatsapp/webhook'];

/** Provider callbacks are verified over the exact bytes received: keep them raw (1 MB like other routes). */
export function callbackBodies(): express.RequestHandler {
  const raw = express.raw({ type: () => true, limit: 1024 * 1024 });
  return (req, res, next) => (req.method === 'POST' && CALLBACK_PATHS.includes(req.path) ? raw(req, res, next) : next());
}

const rawBody = (req: Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
const header = (req: Request, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : '';
};
function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
function parseJson(buf: Buffer): Record<string, unknown> {
  try {
    const v = JSON.parse(buf.toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw badRequest('invalid JSON body');
}

function inBackground(ctx: AgentsContext, work: Promise<unknown>): void {
  const p = work.catch((err: unknown) => ctx.log(`callback: ${err instanceof Error ? err.message : String(err)}`)).finally(() => ctx.background.delete(p));
  ctx.background.add(p);
}

export function callbackRoutes(ctx: AgentsContext, now: () => number = Date.now): AgentRoute[] {
  return [
    route({
      method: 'post',
      path: '/api/slack/events', response: callbacksResponses['POST /api/slack/events'],
      auth: 'public',
      handler: async ({ req }) => {
        const secret = ctx.config.slackSigningSecret;
        if (!secret) throw unavailable('team-chat callbacks not configured');
        const ts = header(req, 'x-slack-request-timestamp');
        const sig = header(req, 'x-slack-signature');
        if (!ts || !sig) throw unauthorized('missing signature');
        const t = Number(ts);
        const nowMs = now();
        if (!/^\d{1,12}$/.test(ts) || Math.abs(nowMs / 1000 - t) > REPLAY_WINDOW_S) throw unauthorized('stale request');
        const body = rawBody(req);
        const want = `v0=${createHmac('sha256', secret).update(`v0:${ts}:`).update(body).digest('hex')}`;
        if (!sameHex(sig, want)) throw unauthorized('bad signature');
        if (!(await firstSighting(ctx, `slack-sig:${sig}`, nowMs))) throw unauthorized('replayed request');
        const payload = parseJson(body);
        if (payload.type === 'url_verification') return { challenge: String(payload.challenge ?? '') };
        if (payload.type !== 'event_callback') return { ok: true };
        if (typeof payload.event_id === 'string' && !(await firstSighting(ctx, `slack-event:${payload.event_id}`, nowMs))) return { ok: true, duplicate: true };
        const ev = (payload.event ?? {}) as Record<string, unknown>;
        const isUserMessage = (ev.type === 'message' || ev.type === 'app_mention') && !ev.bot_id && !ev.subtype && typeof ev.text === 'string' && typeof ev.channel === 'string';
        if (!isUserMessage) return { ok: true };
        const conn = await connectedAgentOf(ctx, 'slack', String(payload.team_id ?? ''));
        if (!conn) return { ok: true };
        const thread = String(ev.thread_ts ?? ev.ts ?? '');
        const text = String(ev.text).replace(/<@[A-Z0-9]+>\s*/g, '').trim();
        if (text) inBackground(ctx, receiveChannelMessage(ctx, { workspaceId: conn.workspace_id, agentId: conn.agent_id, channel: 'slack', ref: `${String(ev.channel)}:${thread}`, visitor: String(ev.user ?? ''), text }));
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/whatsapp/webhook', produces: 'text/plain',
      auth: 'public',
      query: callbacksRequests['GET /api/whatsapp/webhook'].query,
      handler: ({ query }) => {
        const token = ctx.config.whatsappVerifyToken;
        if (!token) throw unavailable('messaging callbacks not configured');
        if (query['hub.mode'] !== 'subscribe' || !query['hub.verify_token'] || !sameHex(query['hub.verify_token'], token)) throw forbidden('verify token mismatch');
        return new Reply(200, query['hub.challenge'] ?? '', { 'content-type': 'text/plain; charset=utf-8' });
      },
    }),
    route({
      method: 'post',
      path: '/api/whatsapp/webhook', response: callbacksResponses['POST /api/whatsapp/webhook'],
      auth: 'public',
      handler: async ({ req }) => {
        const secret = ctx.config.whatsappAppSecret;
        if (!secret) throw unavailable('messaging callbacks not configured');
        const sig = header(req, 'x-hub-signature-256');
        if (!sig) throw unauthorized('missing signature');
        const body = rawBody(req);
        const want = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
        if (!sameHex(sig, want)) throw unauthorized('bad signature');
        const payload = parseJson(body);
        const nowMs = now();
        const entries = Array.isArray(payload.entry) ? (payload.entry as Record<string, unknown>[]) : [];
        let accepted = 0;
        for (const entry of entries) {
          for (const change of Array.isArray(entry.changes) ? (entry.changes as Record<string, unknown>[]) : []) {
            const value = (change.value ?? {}) as Record<string, unknown>;
            const phoneId = String(((value.metadata ?? {}) as Record<string, unknown>).phone_number_id ?? '');
            const conn = await connectedAgentOf(ctx, 'whatsapp', phoneId);
            for (const m of Array.isArray(value.messages) ? (value.messages as Record<string, unknown>[]) : []) {
              const text = String(((m.text ?? {}) as Record<string, unknown>).body ?? '').trim();
              if (!conn || m.type !== 'text' || !text || typeof m.from !== 'string') continue;
              // Providers retry deliveries: each message id is handled once.
              if (!(await firstSighting(ctx, `wa-msg:${String(m.id ?? '')}`, nowMs))) continue;
              accepted++;
              inBackground(ctx, receiveChannelMessage(ctx, { workspaceId: conn.workspace_id, agentId: conn.agent_id, channel: 'whatsapp', ref: m.from, visitor: m.from, text }));
            }
          }
        }
        return { ok: true, accepted };
      },
    }),
  ];
}

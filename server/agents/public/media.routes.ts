import { badRequest, unavailable } from '../../core/errors';
import { Reply } from '../../core/http/route-core';
import type { AgentsContext } from '../context';
import { perIp, route, type AgentRoute } from '../http';
import { assertCanChat, paidTurn } from '../billing';

import { publicAgent } from './public-agent';
import { AUDIO_TYPES, type WidgetMedia } from './media';
import { mediaResponses } from '../../../shared/api/contracts/agents-public';
import { mediaRequests, publicParam, lang } from '../../../shared/api/contracts/agents-public-requests';
/** Recorded speech a JSON body (1 MB) can carry as base64. */
const AUDIO_MAX_BYTES = 700_000;

/**
 * The widget's speech, translation and avatar operations. Speech and translation need a provider
 * (OPENAI_API_KEY): while none is set they answer 503 with what is missing, never a made-up result.
 * No avatar provider is supported: those operations answer 503 `avatar not configured`.
 */
export function mediaRoutes(ctx: AgentsContext, media: WidgetMedia | null): AgentRoute[] {
  const agentOf = async (publicId: string) => {
    const agent = publicAgent(ctx, publicId);
    await assertCanChat(ctx, agent.workspace_id);
    return agent;
  };
  const need = (what: string) => {
    if (!media) throw unavailable(`${what} not configured`);
    return media;
  };
  return [
    route({
      method: 'post',
      path: '/api/public/:publicId/tts', produces: 'audio/mpeg',
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: mediaRequests['POST /api/public/:publicId/tts'].body,
      handler: async ({ params, body }) => {
        const agent = await agentOf(params.publicId);
        const speech = need('speech');
        const r = await paidTurn(ctx, agent.workspace_id, 'tts', () => speech.speak(body.text, body.voice));
        return new Reply(200, r.audio, { 'Content-Type': r.mime, 'Cache-Control': 'no-store' });
      },
    }),
    route({
      method: 'post',
      path: '/api/public/:publicId/transcribe', response: mediaResponses['POST /api/public/:publicId/transcribe'],
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: mediaRequests['POST /api/public/:publicId/transcribe'].body,
      handler: async ({ params, body }) => {
        const agent = await agentOf(params.publicId);
        const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(body.audio);
        const mime = (body.mime ?? dataUrl?.[1] ?? 'audio/webm').toLowerCase();
        if (!AUDIO_TYPES[mime]) throw badRequest(`mime: audio must be one of ${Object.keys(AUDIO_TYPES).join(', ')}`);
        const b64 = dataUrl ? dataUrl[2] : body.audio;
        if (!/^[A-Za-z0-9+/=\s]+$/.test(b64)) throw badRequest('audio: must be base64');
        const audio = Buffer.from(b64, 'base64');
        if (audio.length === 0) throw badRequest('audio: empty recording');
        if (audio.length > AUDIO_MAX_BYTES) throw badRequest(`audio: at most ${AUDIO_MAX_BYTES} bytes`);
        const speech = need('speech');
        return { text: await paidTurn(ctx, agent.workspace_id, 'transcribe', () => speech.transcribe(audio, mime, body.lang)), lang: body.lang ?? null };
      },
    }),
    route({
      method: 'post',
      path: '/api/public/:publicId/translate', response: mediaResponses['POST /api/public/:publicId/translate'],
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: mediaRequests['POST /api/public/:publicId/translate'].body,
      handler: async ({ params, body }) => {
        const agent = await agentOf(params.publicId);
        // The same language needs no provider (and no credit).
        if (body.source && body.source === body.target) return { text: body.text, source: body.source, target: body.target };
        const translation = need('translation');
        return { text: await paidTurn(ctx, agent.workspace_id, 'translate', () => translation.translate(body.text, body.target, body.source)), source: body.source ?? null, target: body.target };
      },
    }),
    route({
      method: 'post',
      path: '/api/public/:publicId/avatar-session', response: mediaResponses.avatarSession,
      auth: 'public',
      before: perIp(ctx.limits.publicPost),
      params: publicParam,
      body: mediaRequests['POST /api/public/:publicId/avatar-session'].body,
      handler: async ({ params }) => {
        await agentOf(params.publicId);
        throw unavailable('avatar not configured');
      },
    }),
    route({
      method: 'get',
      path: '/api/public/:publicId/avatar-video', produces: 'video/mp4',
      auth: 'public',
      before: perIp(ctx.limits.publicAvatarVideo),
      params: publicParam,
      query: mediaRequests['GET /api/public/:publicId/avatar-video'].query,
      handler: async ({ params }) => {
        await agentOf(params.publicId);
        throw unavailable('avatar not configured');
      },
    }),
  ];
}

import { clip } from '../../../../shared/fields';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { chat, llmConfigured, searchConfigured, searchWeb, type ChatTurn } from './ai-provider';
import { providerRequests, providerResponses } from '../../../../shared/api/contracts/public';

const json = (status: number, body: unknown) => new Reply(status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });

/** Keep only well-formed turns; a path-like segment in text is inert (it is only ever sent as JSON content). */
function cleanHistory(h: unknown): ChatTurn[] {
  if (!Array.isArray(h)) return [];
  return h
    .filter((t): t is { role: string; content: string } => !!t && typeof t === 'object' && typeof (t as Doc).content === 'string')
    .map((t) => ({ role: t.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: clip(t.content, 4000) }))
    .slice(-8);
}
type Doc = Record<string, unknown>;

export const advisorRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/advisor',
    response: providerResponses.advisor,
    auth: 'public',
    workspace: false,
    body: providerRequests.advisor,
    handler: async ({ app, req, body }) => {
      const message = typeof body.message === 'string' ? clip(body.message.trim(), 4000) : '';
      if (!message) throw badRequest('message required', { message: '質問を入力してください' });
      if (!llmConfigured()) return json(200, { ok: false, fallback: true, reason: 'no_key' });
      await hitLimit(app, 'publicForm', req.ip);
      try {
        const out = await chat(cleanHistory(body.history), message);
        return { text: out.text, model: out.model };
      } catch {
        return json(200, { ok: false, fallback: true, reason: 'provider_error' });
      }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketprice',
    response: providerResponses.marketprice,
    auth: 'public',
    workspace: false,
    handler: async ({ app, req }) => {
      const model = typeof req.query.model === 'string' ? req.query.model.trim() : '';
      if (!model) throw badRequest('model required', { message: '機種名を入力してください' });
      if (model.length > 80) throw badRequest('model too long', { limit: 80 });
      const cond = typeof req.query.cond === 'string' ? req.query.cond.trim() : '';
      if (cond.length > 24) throw badRequest('cond too long', { limit: 24 });
      if (!searchConfigured()) return { live: false, model, note: '検索プロバイダが未設定のため、相場は取得できません（KITTING 管理者に BRAVE_SEARCH_KEY の設定を依頼してください）' };
      await hitLimit(app, 'publicForm', req.ip);
      try {
        const results = await searchWeb(`${model} ${cond} 中古 買取 相場`.trim());
        return { live: true, model, note: '検索結果の見出しです。価格は各リンク先で確認してください。', results };
      } catch {
        return { live: false, model, note: '検索プロバイダに接続できませんでした' };
      }
    },
  }),
];

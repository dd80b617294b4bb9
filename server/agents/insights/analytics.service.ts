import type { AgentsContext } from '../context';
import { FALLBACK_EN, FALLBACK_JA } from '../chat/local-engine';
import * as repo from './insights.repository';

const DAY = 86_400_000;

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Conversation volume, a 7-day series (UTC days, today last), top countries and channels. */
export async function chatAnalytics(ctx: AgentsContext, ws: string, agentId: string | undefined, now = Date.now()) {
  const total = await repo.countConversations(ctx.db, ws, agentId);
  const messages = await repo.countConversationMessages(ctx.db, ws, agentId);
  const start = Date.parse(`${utcDay(now - 6 * DAY)}T00:00:00Z`);
  const convs = await repo.conversationTimesSince(ctx.db, ws, agentId, start);
  const msgs = await repo.messageTimesSince(ctx.db, ws, agentId, start);
  const series = Array.from({ length: 7 }, (_, i) => ({ date: utcDay(start + i * DAY), conversations: 0, messages: 0 }));
  const byDay = new Map(series.map((d) => [d.date, d]));
  for (const c of convs) {
    const d = byDay.get(utcDay(c.created_at));
    if (d) d.conversations++;
  }
  for (const m of msgs) {
    const d = byDay.get(utcDay(m.created_at));
    if (d) d.messages++;
  }
  const topCountries = await repo.topCountries(ctx.db, ws, agentId, 5);
  const byChannel = await repo.conversationsByChannel(ctx.db, ws, agentId);
  return { total, messages, last7: convs.length, series, topCountries, byChannel };
}

const TOPICS: { topic: string; re: RegExp }[] = [
  { topic: 'pricing', re: /\b(price|pricing|cost|costs|how much|plan|plans|fee|fees|quote|discount)\b|料金|価格|値段|いくら|費用|見積/i },
  { topic: 'shipping', re: /\b(ship|shipping|deliver|delivery|tracking|parcel|courier)\b|送料|配送|発送|届|配達/i },
  { topic: 'returns', re: /\b(return|returns|refund|refunds|exchange|cancel|cancellation)\b|返品|返金|交換|キャンセル|解約/i },
  { topic: 'account', re: /\b(login|log in|sign in|password|account|register|signup)\b|ログイン|パスワード|アカウント|登録/i },
  { topic: 'technical', re: /\b(error|bug|crash|not working|broken|doesn'?t work|issue|problem)\b|エラー|不具合|動かない|故障|壊れ/i },
  { topic: 'hours_location', re: /\b(open|opening|hours|where|address|location|directions|closed)\b|営業|時間|場所|住所|アクセス|定休/i },
  { topic: 'product', re: /\b(product|products|feature|features|stock|available|availability|size|model)\b|商品|在庫|機能|サイズ|製品/i },
  { topic: 'human', re: /\b(human|person|agent|operator|representative|someone)\b|担当者|オペレーター|有人/i },
];

function topicOf(text: string): string {
  return TOPICS.find((t) => t.re.test(text))?.topic ?? 'other';
}

/** Topic buckets of the conversations' first visitor messages. */
export async function topics(ctx: AgentsContext, ws: string, agentId: string | undefined) {
  const rows = await repo.firstMessages(ctx.db, ws, agentId, 5000);
  const buckets = new Map<string, { topic: string; count: number; examples: string[] }>();
  for (const r of rows) {
    const topic = topicOf(r.first_message);
    const b = buckets.get(topic) ?? { topic, count: 0, examples: [] };
    b.count++;
    if (b.examples.length < 3) b.examples.push(r.first_message.slice(0, 140));
    buckets.set(topic, b);
  }
  const list = [...buckets.values()].sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic));
  return { total: rows.length, topics: list.map((b) => ({ ...b, share: rows.length ? Math.round((b.count / rows.length) * 1000) / 1000 : 0 })) };
}

const POSITIVE = /\b(thanks?|thank you|great|perfect|awesome|love|helpful|excellent|amazing|wonderful|nice|good)\b|ありがとう|助かり|素晴らしい|最高|嬉しい|うれしい|良かった|よかった|完璧/gi;
const NEGATIVE = /\b(bad|terrible|awful|angry|useless|broken|worst|hate|disappointed|disappointing|complaint|unacceptable|rude|slow|wrong|not working|doesn'?t work)\b|最悪|困って|不満|遅い|壊れ|ひどい|怒|残念|使えない|動かない/gi;

function sentimentOf(text: string): 'positive' | 'neutral' | 'negative' {
  const p = text.match(POSITIVE)?.length ?? 0;
  const n = text.match(NEGATIVE)?.length ?? 0;
  return p > n ? 'positive' : n > p ? 'negative' : 'neutral';
}

/** Positive, neutral and negative visitor messages (a word list in English and Japanese). */
export async function sentiment(ctx: AgentsContext, ws: string, agentId: string | undefined) {
  const rows = await repo.visitorMessages(ctx.db, ws, agentId, 20000);
  const out = { positive: 0, neutral: 0, negative: 0 };
  for (const r of rows) out[sentimentOf(r.text)]++;
  const total = rows.length;
  return { ...out, total, score: total ? Math.round(((out.positive - out.negative) / total) * 100) / 100 : 0 };
}

/** Visitor questions the agent could not answer (its reply was the honest fallback). */
export async function unanswered(ctx: AgentsContext, ws: string, limit = 10): Promise<string[]> {
  const rows = await repo.questionsAnsweredWith(ctx.db, ws, [FALLBACK_EN, FALLBACK_JA], limit);
  return [...new Set(rows.map((r) => r.q).filter((q): q is string => !!q))];
}

export function monthStart(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

import type { AgentsContext } from '../context';
import type { EngineName } from '../chat/engine';
import { TIER_ALLOWANCE } from '../billing';
import { chatAnalytics, monthStart, sentiment, topics, unanswered } from './analytics.service';
import { agentsWithSourceCounts, workspaceCounts, workspaceCredits } from './insights.repository';

export type Lang = 'en' | 'ja';
const langOf = (code: string | undefined): Lang => (code?.toLowerCase().startsWith('ja') ? 'ja' : 'en');

export interface Recommendation {
  id: string;
  severity: 'high' | 'medium' | 'low';
  text: string;
}

const T = {
  en: {
    noAgents: 'Create your first agent so visitors have someone to talk to.',
    noSources: (n: string) => `Agent "${n}" has no knowledge sources yet: add Q&A pairs, text, files or your website.`,
    unanswered: (n: number, ex: string) => `${n} recent question(s) went unanswered, for example "${ex}". Add Q&A pairs for them.`,
    handoffs: (n: number) => `${n} conversation(s) are waiting for a person. Reply from the inbox.`,
    thumbsDown: (p: number) => `${p}% of rated replies got a thumbs down. Review them and save corrections.`,
    noLeads: 'Conversations are coming in but no leads were captured. Turn on lead collection in the widget.',
    credits: (n: number) => `Only ${n} credit(s) left; chat stops at zero. Top up soon.`,
    negative: (p: number) => `${p}% of visitor messages read as negative. Check the conversations behind them.`,
    healthy: 'Everything looks healthy. Keep adding knowledge as new questions appear.',
    narrative: (k: Kpis, score: number, top: string) =>
      `Your workspace health score is ${score}/100. In the last 7 days there were ${k.conversations7d} conversation(s) and ${k.messages} message(s) in total; ` +
      `${k.leads} lead(s) have been captured. The most common topic is ${top}. ` +
      `Credits left: ${k.credits}. Monthly usage: ${k.usedThisMonth} of ${k.allowance} messages.`,
  },
  ja: {
    noAgents: '最初のエージェントを作成して、訪問者の問い合わせに対応できるようにしましょう。',
    noSources: (n: string) => `エージェント「${n}」にはまだナレッジがありません。Q&A、テキスト、ファイル、Webサイトを追加してください。`,
    unanswered: (n: number, ex: string) => `最近の質問のうち${n}件に回答できませんでした（例：「${ex}」）。Q&Aを追加してください。`,
    handoffs: (n: number) => `${n}件の会話が担当者の対応を待っています。受信箱から返信してください。`,
    thumbsDown: (p: number) => `評価された回答の${p}%が低評価です。内容を確認し、修正を保存してください。`,
    noLeads: '会話はありますが、リードが獲得できていません。ウィジェットでリード収集を有効にしてください。',
    credits: (n: number) => `残りクレジットは${n}です。0になるとチャットが停止します。早めに追加してください。`,
    negative: (p: number) => `訪問者のメッセージの${p}%が否定的な内容です。該当する会話を確認してください。`,
    healthy: '全体的に良好です。新しい質問が出てきたら、引き続きナレッジを追加しましょう。',
    narrative: (k: Kpis, score: number, top: string) =>
      `ワークスペースの健全性スコアは${score}/100です。直近7日間の会話は${k.conversations7d}件、累計メッセージは${k.messages}件、獲得したリードは${k.leads}件です。` +
      `最も多い話題は「${top}」です。残りクレジットは${k.credits}、今月の利用は${k.allowance}件中${k.usedThisMonth}件です。`,
  },
};

export interface Kpis {
  agents: number;
  sources: number;
  conversations: number;
  conversations7d: number;
  messages: number;
  leads: number;
  contacts: number;
  openHandoffs: number;
  thumbsUp: number;
  thumbsDown: number;
  credits: number;
  usedThisMonth: number;
  allowance: number;
  sentiment: { positive: number; neutral: number; negative: number };
}

export async function kpis(ctx: AgentsContext, ws: string): Promise<Kpis> {
  const chats = await chatAnalytics(ctx, ws, undefined);
  const w = await workspaceCredits(ctx.db, ws);
  const s = await sentiment(ctx, ws, undefined);
  const c = await workspaceCounts(ctx.db, ws, monthStart());
  return {
    agents: c.agents,
    sources: c.sources,
    conversations: chats.total,
    conversations7d: chats.last7,
    messages: chats.messages,
    leads: c.leads,
    contacts: c.contacts,
    openHandoffs: c.openHandoffs,
    thumbsUp: c.thumbsUp,
    thumbsDown: c.thumbsDown,
    credits: w.credits,
    usedThisMonth: c.usedThisMonth,
    allowance: TIER_ALLOWANCE[w.tier] ?? TIER_ALLOWANCE.free,
    sentiment: { positive: s.positive, neutral: s.neutral, negative: s.negative },
  };
}

/** Health score, KPIs and recommendations from rules over the stored data, with a narrative in the caller's language. */
async function ruleAnalysis(ctx: AgentsContext, ws: string, lang: Lang) {
  const k = await kpis(ctx, ws);
  const t = T[lang];
  const recs: Recommendation[] = [];
  let score = 100;
  const add = (id: string, severity: Recommendation['severity'], text: string, cost: number) => {
    recs.push({ id, severity, text });
    score -= cost;
  };
  const agents = await agentsWithSourceCounts(ctx.db, ws);
  if (agents.length === 0) add('create-agent', 'high', t.noAgents, 40);
  for (const a of agents.filter((x) => x.n === 0)) add('add-sources', 'high', t.noSources(a.name), 20);
  const missed = await unanswered(ctx, ws, 20);
  if (missed.length) add('unanswered', missed.length >= 5 ? 'high' : 'medium', t.unanswered(missed.length, missed[0].slice(0, 80)), Math.min(20, missed.length * 3));
  if (k.openHandoffs) add('handoffs', 'high', t.handoffs(k.openHandoffs), Math.min(15, k.openHandoffs * 5));
  const rated = k.thumbsUp + k.thumbsDown;
  if (rated >= 3 && k.thumbsDown / rated > 0.3) add('thumbs-down', 'medium', t.thumbsDown(Math.round((k.thumbsDown / rated) * 100)), 10);
  if (k.conversations >= 10 && k.leads === 0) add('no-leads', 'low', t.noLeads, 5);
  if (k.credits < 20) add('credits', k.credits === 0 ? 'high' : 'medium', t.credits(k.credits), k.credits === 0 ? 15 : 5);
  const userMsgs = k.sentiment.positive + k.sentiment.neutral + k.sentiment.negative;
  if (userMsgs >= 5 && k.sentiment.negative / userMsgs > 0.25) add('negative', 'medium', t.negative(Math.round((k.sentiment.negative / userMsgs) * 100)), 10);
  if (recs.length === 0) recs.push({ id: 'healthy', severity: 'low', text: t.healthy });
  score = Math.max(0, Math.min(100, score));
  const top = (await topics(ctx, ws, undefined)).topics[0]?.topic ?? (lang === 'ja' ? 'なし' : 'none yet');
  return { score, kpis: k, recommendations: recs, narrative: t.narrative(k, score, top), unanswered: missed };
}

/** The analysis; with a model engine the narrative is written by the model in the requested language. */
export async function analysis(ctx: AgentsContext, ws: string, langCode: string) {
  const lang = langOf(langCode);
  const base = await ruleAnalysis(ctx, ws, lang);
  const engine = ctx.engines.pick('auto');
  let narrative = base.narrative;
  let used: EngineName = 'local';
  if (engine.name !== 'local') {
    try {
      let text = '';
      for await (const piece of engine.stream({
        agentName: 'Advisor', systemPrompt: `You are an analytics advisor for a chatbot workspace. Write a short narrative (4-6 sentences) in the language with code "${langCode || 'en'}".`,
        welcome: '', model: 'auto', temperature: 0.3, history: [], passages: [],
        message: `KPIs: ${JSON.stringify(base.kpis)}\nHealth score: ${base.score}\nRecommendations: ${base.recommendations.map((r) => r.text).join(' | ')}`,
      })) text += piece;
      if (text.trim()) {
        narrative = text.trim();
        used = engine.name;
      }
    } catch (err) {
      ctx.log(`advisor narrative failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { lang: langCode || 'en', ...base, narrative, engine: used };
}

export interface Attachment {
  name: string;
  mime: string;
  bytes: number;
  text: string | null;
}

/** Advisor chat: a model reply when a key is set, else an answer from the rules and the stored figures. */
export async function advisorChat(ctx: AgentsContext, ws: string, body: { message: string; history: { role: 'user' | 'assistant'; text: string }[]; lang?: string }, files: Attachment[]) {
  const lang = langOf(body.lang);
  const base = await ruleAnalysis(ctx, ws, lang);
  const engine = ctx.engines.pick('auto');
  if (engine.name !== 'local') {
    try {
      let text = '';
      const context = `Workspace figures: ${JSON.stringify(base.kpis)}\nRecommendations: ${base.recommendations.map((r) => r.text).join(' | ')}\n` +
        files.map((f) => `Attachment ${f.name} (${f.mime}, ${f.bytes} bytes)${f.text ? `:\n${f.text.slice(0, 20_000)}` : ''}`).join('\n');
      for await (const piece of engine.stream({
        agentName: 'Advisor', systemPrompt: `You are an advisor for a chatbot workspace. Answer in the language with code "${body.lang || 'en'}". Use these figures:\n${context}`,
        welcome: '', model: 'auto', temperature: 0.4, history: body.history, passages: [], message: body.message,
      })) text += piece;
      if (text.trim()) return { reply: text.trim(), engine: engine.name, lang: body.lang || 'en' };
    } catch (err) {
      ctx.log(`advisor chat failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const m = body.message.toLowerCase();
  const k = base.kpis;
  const parts: string[] = [];
  if (/lead|リード|contact|連絡先/.test(m)) parts.push(lang === 'ja' ? `リードは${k.leads}件、連絡先は${k.contacts}件です。` : `You have ${k.leads} lead(s) and ${k.contacts} contact(s).`);
  if (/unanswer|fallback|答えられ|未回答|回答でき/.test(m)) {
    parts.push(base.unanswered.length
      ? (lang === 'ja' ? `回答できなかった質問：${base.unanswered.slice(0, 5).map((q) => `「${q}」`).join('、')}` : `Unanswered questions: ${base.unanswered.slice(0, 5).map((q) => `"${q}"`).join(', ')}`)
      : (lang === 'ja' ? '最近は回答できなかった質問はありません。' : 'No recent question went unanswered.'));
  }
  if (/credit|クレジット|usage|利用/.test(m)) parts.push(lang === 'ja' ? `残りクレジットは${k.credits}、今月の利用は${k.usedThisMonth}/${k.allowance}件です。` : `${k.credits} credit(s) left; ${k.usedThisMonth} of ${k.allowance} messages used this month.`);
  if (files.length) parts.push(lang === 'ja' ? `添付ファイル${files.length}件（${files.map((f) => f.name).join('、')}）を受け取りました。` : `Received ${files.length} attachment(s): ${files.map((f) => `${f.name} (${Math.ceil(f.bytes / 1024)} KB${f.text ? `, ${f.text.split('\n').length} lines` : ''})`).join(', ')}.`);
  if (!parts.length) parts.push(base.narrative, base.recommendations[0].text);
  return { reply: parts.join(lang === 'ja' ? '' : ' '), engine: 'local' as const, lang: body.lang || 'en' };
}

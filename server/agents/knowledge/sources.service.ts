import { join } from 'node:path';
import { privateDir, writePrivateFile } from '../../core/security/private-files';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { getAgent, type AgentRow } from '../agents/agents.service';
import { setAvatarIfNone, stampTrained } from '../agents/agents.repository';
import type { AgentsDb } from '../schema';
import { deleteSourceRow, insertSource, markFailed, sourceById, sourcesOfAgent, storeCrawl, updateSourceText, type SourceRecord } from './sources.repository';
import { countAgentPassages, deleteSourcePassages } from './passages.repository';
import { decodeBase64, extractFileText, sniffMime } from './extract';
import { fetchPublic } from './net-guard';
import { indexSource } from './search';
import { htmlToText, metaContent, pageTitle } from './text';
import { crawlSite } from './crawl';
import { SOURCE_TYPES, type SourceType } from '../../../shared/api/contracts/agents-values';


export type SourceRow = SourceRecord;

export interface SourceInput {
  type: SourceType;
  name?: string;
  content?: string;
  url?: string;
  question?: string;
  answer?: string;
  dataBase64?: string;
  mime?: string;
  sizeKb?: number;
  maxPages?: number;
}

const iso = (t: number) => new Date(t).toISOString();

export function presentSource(s: SourceRow, full = false) {
  return {
    id: s.id,
    agentId: s.agent_id,
    type: s.type,
    name: s.name,
    content: full ? s.content : s.content.slice(0, 280),
    chars: s.content.length,
    url: s.url || null,
    question: s.question || null,
    answer: s.answer || null,
    mime: s.mime || null,
    sizeKb: s.size_kb,
    status: s.status,
    error: s.error,
    pages: s.pages,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

export async function getSource(ctx: AgentsContext, ws: string, id: string): Promise<SourceRow> {
  const s = await sourceById(ctx.db, ws, id);
  if (!s) throw notFound('source not found');
  return s;
}

export async function listSources(ctx: AgentsContext, ws: string, agentId: string, type?: string): Promise<SourceRow[]> {
  return sourcesOfAgent(ctx.db, ws, agentId, type);
}

const kb = (chars: string | Buffer) => Math.max(1, Math.ceil(Buffer.byteLength(chars) / 1024));

/** Inside a transaction: the source's passages replaced (the source row locked while they are written). */
function reindex(tx: AgentsDb, s: SourceRow): Promise<number> {
  return indexSource(tx, { ws: s.workspace_id, agentId: s.agent_id, sourceId: s.id, type: s.type, content: s.content, question: s.question, answer: s.answer });
}

async function insert(ctx: AgentsContext, row: Omit<SourceRow, 'created_at' | 'updated_at' | 'error' | 'pages'>): Promise<SourceRow> {
  const now = Date.now();
  await ctx.db.transaction().execute(async (tx) => {
    await insertSource(tx, { ...row, created_at: now, updated_at: now });
    if (row.status === 'trained') await reindex(tx, { ...row, created_at: now, updated_at: now, error: null, pages: 0 });
  });
  return getSource(ctx, row.workspace_id, row.id);
}

const req = (v: string | undefined, field: string) => {
  const t = (v ?? '').trim();
  if (!t) throw badRequest(`${field} is required`);
  return t;
};

/** Add a source of any type: text and Q&A are indexed at once, files extracted first, websites crawled in the background. */
export async function addSource(ctx: AgentsContext, agent: AgentRow, input: SourceInput): Promise<SourceRow> {
  const base = { id: newId('src'), workspace_id: agent.workspace_id, agent_id: agent.id, type: input.type, url: '', question: '', answer: '', mime: '', status: 'trained' };
  const name = (input.name ?? '').trim();
  switch (input.type) {
    case 'text': {
      const content = req(input.content, 'content');
      return await insert(ctx, { ...base, name: name || content.slice(0, 60), content, size_kb: kb(content) });
    }
    case 'qa': {
      const question = req(input.question, 'question');
      const answer = req(input.answer, 'answer');
      return await insert(ctx, { ...base, name: name || question.slice(0, 120), content: `${question}\n${answer}`, question, answer, size_kb: kb(question + answer) });
    }
    case 'file': {
      const data = decodeBase64(req(input.dataBase64, 'dataBase64'));
      const mime = sniffMime(data, input.mime ?? '');
      const content = await extractFileText(data, mime);
      if (!content) throw badRequest('the file contains no text');
      const s = await insert(ctx, { ...base, name: name || 'file', content, mime, size_kb: input.sizeKb ?? kb(data) });
      const dir = join(ctx.config.dataDir, 'uploads', agent.workspace_id);
      privateDir(dir);
      writePrivateFile(join(dir, s.id), data);
      return s;
    }
    case 'website': {
      const url = req(input.url, 'url');
      const s = await insert(ctx, { ...base, name: name || url, content: '', url, status: 'crawling', size_kb: 0 });
      const limit = Math.min(ctx.config.crawlPageLimit, Math.max(1, input.maxPages ?? ctx.config.crawlPageLimit));
      startCrawl(ctx, s, limit);
      return s;
    }
    case 'social':
      return addSocial(ctx, agent, req(input.url, 'url'), undefined, name);
  }
}

/** Crawl in the background; the source reads `crawling` until it is `trained` or `failed`. */
function startCrawl(ctx: AgentsContext, s: SourceRow, limit: number): void {
  const job = crawlSite(s.url, limit, { allowPrivate: ctx.config.allowPrivateFetch })
    .then((pages) => {
      const content = pages.map((p) => `${p.title ? `${p.title}\n` : ''}${p.text}`).join('\n\n').trim();
      return ctx.db.transaction().execute(async (tx) => {
        const cur = await sourceById(tx, s.workspace_id, s.id);
        if (!cur) return;
        const status = content ? 'trained' : 'failed';
        await storeCrawl(tx, s.workspace_id, s.id, { content, pages: pages.length, size_kb: content ? kb(content) : 0, status, error: content ? null : 'no readable text found' }, Date.now());
        if (content) await reindex(tx, { ...cur, content });
      });
    })
    .catch(async (err: unknown) => {
      const msg = err instanceof Error ? err.message : String(err);
      await markFailed(ctx.db, s.workspace_id, s.id, msg.slice(0, 300), Date.now()).catch((e: unknown) => ctx.log(`crawl of ${s.id}: ${e instanceof Error ? e.message : String(e)}`));
    })
    .finally(() => ctx.background.delete(job));
  ctx.background.add(job);
}

const PLATFORMS: [RegExp, string][] = [
  [/(^|\.)(x|twitter)\.com$/, 'x'], [/(^|\.)instagram\.com$/, 'instagram'], [/(^|\.)linkedin\.com$/, 'linkedin'], [/(^|\.)facebook\.com$/, 'facebook'],
  [/(^|\.)tiktok\.com$/, 'tiktok'], [/(^|\.)youtube\.com$/, 'youtube'], [/(^|\.)github\.com$/, 'github'],
];

/** Train on a public profile's bio; the agent borrows the profile picture when it has none. */
export async function addSocial(ctx: AgentsContext, agent: AgentRow, url: string, platform: string | undefined, name = ''): Promise<SourceRow> {
  const page = await fetchPublic(url, { allowPrivate: ctx.config.allowPrivateFetch });
  const host = new URL(page.url).hostname;
  const plat = platform || PLATFORMS.find(([re]) => re.test(host))?.[1] || 'web';
  const title = metaContent(page.body, 'og:title') || pageTitle(page.body);
  const bio = metaContent(page.body, 'og:description') || metaContent(page.body, 'description') || htmlToText(page.body).slice(0, 600);
  const avatarRaw = metaContent(page.body, 'og:image');
  const avatar = avatarRaw ? new URL(avatarRaw, page.url).toString() : '';
  const content = [title, bio].filter(Boolean).join('\n');
  if (!content) throw badRequest('no profile information found at that address');
  const s = await insert(ctx, {
    id: newId('src'), workspace_id: agent.workspace_id, agent_id: agent.id, type: 'social', name: name || `${plat}: ${title || host}`,
    content, url: page.url, question: '', answer: '', mime: plat, size_kb: kb(content), status: 'trained',
  });
  if (avatar && !agent.avatar_url) await setAvatarIfNone(ctx.db, agent.workspace_id, agent.id, avatar, Date.now());
  return s;
}

export async function updateSource(ctx: AgentsContext, ws: string, id: string, patch: { name?: string; content?: string; question?: string; answer?: string }): Promise<SourceRow> {
  const s = await getSource(ctx, ws, id);
  const next: SourceRow = {
    ...s,
    name: patch.name?.trim() || s.name,
    question: patch.question ?? s.question,
    answer: patch.answer ?? s.answer,
    content: patch.content ?? s.content,
  };
  if (s.type === 'qa') {
    if (!next.question.trim() || !next.answer.trim()) throw badRequest('question and answer are required');
    if (patch.content === undefined) next.content = `${next.question}\n${next.answer}`;
  }
  await ctx.db.transaction().execute(async (tx) => {
    await updateSourceText(tx, ws, id, { name: next.name, content: next.content, question: next.question, answer: next.answer, size_kb: kb(next.content || ' ') }, Date.now());
    if (s.status !== 'crawling') await reindex(tx, next);
  });
  return getSource(ctx, ws, id);
}

export async function deleteSource(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  await getSource(ctx, ws, id);
  await ctx.db.transaction().execute(async (tx) => {
    await deleteSourcePassages(tx, ws, id);
    await deleteSourceRow(tx, ws, id);
  });
}

/** Re-index every stored source of the agent and stamp last_trained_at. */
export async function retrain(ctx: AgentsContext, ws: string, agentId: string): Promise<{ sources: number; passages: number; last_trained_at: string }> {
  await getAgent(ctx, ws, agentId);
  const now = Date.now();
  let passages = 0;
  const list = (await listSources(ctx, ws, agentId)).filter((s) => s.status !== 'crawling');
  await ctx.db.transaction().execute(async (tx) => {
    for (const s of list) passages += await reindex(tx, s);
    await stampTrained(tx, ws, agentId, now);
  });
  return { sources: list.length, passages, last_trained_at: iso(now) };
}

export async function summary(ctx: AgentsContext, ws: string, agent: AgentRow) {
  const list = await listSources(ctx, ws, agent.id);
  const byType: Record<string, number> = Object.fromEntries(SOURCE_TYPES.map((t) => [t, 0]));
  const byStatus: Record<string, number> = { trained: 0, crawling: 0, failed: 0 };
  let sizeKb = 0;
  let chars = 0;
  for (const s of list) {
    byType[s.type] = (byType[s.type] ?? 0) + 1;
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    sizeKb += s.size_kb;
    chars += s.content.length;
  }
  const passages = await countAgentPassages(ctx.db, ws, agent.id);
  return { agentId: agent.id, total: list.length, sizeKb, chars, passages, byType, byStatus, last_trained_at: agent.last_trained_at ? iso(agent.last_trained_at) : null };
}

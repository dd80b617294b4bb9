import { join } from 'node:path';
import { privateDir, writePrivateFile } from '../../core/security/private-files';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { getAgent, type AgentRow } from '../agents/agents.service';
import { decodeBase64, extractFileText, sniffMime } from './extract';
import { fetchPublic } from './net-guard';
import { indexSource } from './search';
import { htmlToText, metaContent, pageTitle } from './text';
import { crawlSite } from './crawl';
import { SOURCE_TYPES, type SourceType } from '../../../shared/api/contracts/agents-values';


export interface SourceRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  type: SourceType;
  name: string;
  content: string;
  url: string;
  question: string;
  answer: string;
  mime: string;
  size_kb: number;
  status: string;
  error: string | null;
  pages: number;
  created_at: number;
  updated_at: number;
}

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

export function getSource(ctx: AgentsContext, ws: string, id: string): SourceRow {
  const s = ctx.legacyDb.prepare('SELECT * FROM sources WHERE id = ? AND workspace_id = ?').get(id, ws) as SourceRow | undefined;
  if (!s) throw notFound('source not found');
  return s;
}

export function listSources(ctx: AgentsContext, ws: string, agentId: string, type?: string): SourceRow[] {
  if (type) return ctx.legacyDb.prepare('SELECT * FROM sources WHERE workspace_id = ? AND agent_id = ? AND type = ? ORDER BY created_at, id').all(ws, agentId, type) as SourceRow[];
  return ctx.legacyDb.prepare('SELECT * FROM sources WHERE workspace_id = ? AND agent_id = ? ORDER BY created_at, id').all(ws, agentId) as SourceRow[];
}

const kb = (chars: string | Buffer) => Math.max(1, Math.ceil(Buffer.byteLength(chars) / 1024));

function reindex(ctx: AgentsContext, s: SourceRow): number {
  return indexSource(ctx.legacyDb, { ws: s.workspace_id, agentId: s.agent_id, sourceId: s.id, type: s.type, content: s.content, question: s.question, answer: s.answer });
}

function insert(ctx: AgentsContext, row: Omit<SourceRow, 'created_at' | 'updated_at' | 'error' | 'pages'>): SourceRow {
  const now = Date.now();
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb
      .prepare(
        `INSERT INTO sources (id, workspace_id, agent_id, type, name, content, url, question, answer, mime, size_kb, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(row.id, row.workspace_id, row.agent_id, row.type, row.name, row.content, row.url, row.question, row.answer, row.mime, row.size_kb, row.status, now, now);
    if (row.status === 'trained') reindex(ctx, { ...row, created_at: now, updated_at: now, error: null, pages: 0 });
  })();
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
      return insert(ctx, { ...base, name: name || content.slice(0, 60), content, size_kb: kb(content) });
    }
    case 'qa': {
      const question = req(input.question, 'question');
      const answer = req(input.answer, 'answer');
      return insert(ctx, { ...base, name: name || question.slice(0, 120), content: `${question}\n${answer}`, question, answer, size_kb: kb(question + answer) });
    }
    case 'file': {
      const data = decodeBase64(req(input.dataBase64, 'dataBase64'));
      const mime = sniffMime(data, input.mime ?? '');
      const content = await extractFileText(data, mime);
      if (!content) throw badRequest('the file contains no text');
      const s = insert(ctx, { ...base, name: name || 'file', content, mime, size_kb: input.sizeKb ?? kb(data) });
      const dir = join(ctx.config.dataDir, 'uploads', agent.workspace_id);
      privateDir(dir);
      writePrivateFile(join(dir, s.id), data);
      return s;
    }
    case 'website': {
      const url = req(input.url, 'url');
      const s = insert(ctx, { ...base, name: name || url, content: '', url, status: 'crawling', size_kb: 0 });
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
      ctx.legacyDb.transaction(() => {
        const cur = ctx.legacyDb.prepare('SELECT * FROM sources WHERE id = ?').get(s.id) as SourceRow | undefined;
        if (!cur) return;
        const status = content ? 'trained' : 'failed';
        ctx.legacyDb
          .prepare('UPDATE sources SET content = ?, pages = ?, size_kb = ?, status = ?, error = ?, updated_at = ? WHERE id = ?')
          .run(content, pages.length, content ? kb(content) : 0, status, content ? null : 'no readable text found', Date.now(), s.id);
        if (content) reindex(ctx, { ...cur, content });
      })();
    })
    .catch((err: unknown) => {
      const msg = err instanceof Error ? err.message : String(err);
      ctx.legacyDb.prepare("UPDATE sources SET status = 'failed', error = ?, updated_at = ? WHERE id = ?").run(msg.slice(0, 300), Date.now(), s.id);
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
  const s = insert(ctx, {
    id: newId('src'), workspace_id: agent.workspace_id, agent_id: agent.id, type: 'social', name: name || `${plat}: ${title || host}`,
    content, url: page.url, question: '', answer: '', mime: plat, size_kb: kb(content), status: 'trained',
  });
  if (avatar && !agent.avatar_url) ctx.legacyDb.prepare('UPDATE agents SET avatar_url = ?, updated_at = ? WHERE id = ?').run(avatar, Date.now(), agent.id);
  return s;
}

export function updateSource(ctx: AgentsContext, ws: string, id: string, patch: { name?: string; content?: string; question?: string; answer?: string }): SourceRow {
  const s = getSource(ctx, ws, id);
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
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb
      .prepare('UPDATE sources SET name = ?, content = ?, question = ?, answer = ?, size_kb = ?, updated_at = ? WHERE id = ?')
      .run(next.name, next.content, next.question, next.answer, kb(next.content || ' '), Date.now(), id);
    if (s.status !== 'crawling') reindex(ctx, next);
  })();
  return getSource(ctx, ws, id);
}

export function deleteSource(ctx: AgentsContext, ws: string, id: string): void {
  getSource(ctx, ws, id);
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare('DELETE FROM passages WHERE source_id = ?').run(id);
    ctx.legacyDb.prepare('DELETE FROM sources WHERE id = ? AND workspace_id = ?').run(id, ws);
  })();
}

/** Re-index every stored source of the agent and stamp last_trained_at. */
export function retrain(ctx: AgentsContext, ws: string, agentId: string): { sources: number; passages: number; last_trained_at: string } {
  getAgent(ctx, ws, agentId);
  const now = Date.now();
  let passages = 0;
  const list = listSources(ctx, ws, agentId).filter((s) => s.status !== 'crawling');
  ctx.legacyDb.transaction(() => {
    for (const s of list) passages += reindex(ctx, s);
    ctx.legacyDb.prepare('UPDATE agents SET last_trained_at = ? WHERE id = ?').run(now, agentId);
  })();
  return { sources: list.length, passages, last_trained_at: iso(now) };
}

export function summary(ctx: AgentsContext, ws: string, agent: AgentRow) {
  const list = listSources(ctx, ws, agent.id);
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
  const passages = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM passages WHERE agent_id = ?').get(agent.id) as { n: number }).n;
  return { agentId: agent.id, total: list.length, sizeKb, chars, passages, byType, byStatus, last_trained_at: agent.last_trained_at ? iso(agent.last_trained_at) : null };
}

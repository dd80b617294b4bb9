import { dialectOf } from '../../core/db/database';
import type { AgentsDb } from '../schema';
import { ftsCandidates, likeCandidates, replaceSourcePassages, trigramCandidates, trigramDocCounts, type CandidateRow, type PassageInsert } from './passages.repository';
import { chunk, ftsPhrases, matchExpression, shortJapaneseTerms, terms, trigramsOf } from './text';

export interface Passage {
  id: number;
  sourceId: string;
  kind: 'text' | 'qa';
  question: string;
  text: string;
  /** Share of the question's content terms the passage covers (0..1), Q&A questions weighted up. */
  score: number;
}

export interface IndexInput {
  ws: string;
  agentId: string;
  sourceId: string;
  type: string;
  content: string;
  question: string;
  answer: string;
}

/**
 * Replace a source's passages: Q&A is one passage (question + answer), anything else is chunked.
 * Call it inside a transaction: the source is locked and its passages written in batches.
 */
export async function indexSource(tx: AgentsDb, s: IndexInput): Promise<number> {
  frequencies.delete(cacheKey(tx));
  let passages: PassageInsert[];
  if (s.type === 'qa') passages = s.question.trim() || s.answer.trim() ? [{ kind: 'qa', question: s.question.trim(), text: s.answer.trim() }] : [];
  else passages = chunk(s.content).map((text) => ({ kind: 'text', question: '', text }));
  await replaceSourcePassages(tx, s.ws, s.agentId, s.sourceId, passages);
  return passages.length;
}

function overlap(q: Set<string>, text: string): number {
  if (q.size === 0) return 0;
  const t = new Set(terms(text));
  let n = 0;
  for (const x of q) if (t.has(x)) n++;
  return n / q.size;
}

/**
 * Best passages of one agent for a question: trigram FTS5 candidates ranked by bm25, then scored
 * by how much of the question's content they cover. Two-character Japanese words (too short for
 * trigrams) are matched with LIKE when nothing else is searchable.
 */
/** Matching documents a query may touch: phrases are taken rarest first until their lists add up to this. */
const DOC_BUDGET = 1_500;

/**
 * The question's phrases worth searching: estimated document frequency (the rarest trigram of the
 * phrase, from the index's vocabulary) ascending, within the budget, at least the two rarest. Common
 * words would make bm25 score most of the index; rare ones find the same answers.
 */
/**
 * Document frequency of trigrams per connection. Reading one from fts5vocab walks the trigram's
 * whole doclist (a common trigram costs as much as a search), so counts are kept until the next
 * indexing on this connection. Deletions leave counts high, which only makes a phrase look commoner.
 */
const frequencies = new WeakMap<object, Map<string, number>>();
const FREQUENCY_CACHE_MAX = 50_000;
/** One cache per database handle: a transaction shares its handle's adapter. */
const cacheKey = (db: AgentsDb): object => db.getExecutor().adapter;

async function selectPhrases(db: AgentsDb, phrases: string[]): Promise<{ phrases: string[]; all: boolean }> {
  if (phrases.length <= 1) return { phrases, all: false };
  let cache = frequencies.get(cacheKey(db));
  if (!cache || cache.size > FREQUENCY_CACHE_MAX) frequencies.set(cacheKey(db), (cache = new Map()));
  const known = cache;
  const unknown = [...new Set(phrases.flatMap(trigramsOf))].filter((t) => !known.has(t));
  if (unknown.length) {
    const found = await trigramDocCounts(db, unknown);
    for (const t of unknown) known.set(t, found.get(t) ?? 0);
  }
  const docs = (tri: string) => known.get(tri) ?? 0;
  const est = phrases.map((p) => ({ p, n: Math.min(...trigramsOf(p).map(docs)) })).filter((x) => x.n > 0);
  est.sort((a, b) => a.n - b.n);
  const out: string[] = [];
  let total = 0;
  for (const x of est) {
    if (out.length >= 1 && total + x.n > DOC_BUDGET) break;
    out.push(x.p);
    total += x.n;
  }
  // Only common words: the passages holding both of the two rarest are the candidates.
  if (total > DOC_BUDGET && est.length >= 2) return { phrases: [est[0].p, est[1].p], all: true };
  return { phrases: out, all: false };
}

/** FTS5 candidates ranked by bm25 (question weighted 2, text 1). */
async function sqliteCandidates(db: AgentsDb, agentId: string, question: string, candidates: number): Promise<CandidateRow[]> {
  const sel = await selectPhrases(db, ftsPhrases(question));
  const match = matchExpression(sel.phrases, sel.all ? 'AND' : 'OR');
  if (!match) return [];
  return ftsCandidates(db, agentId, match, candidates);
}

/** Best passages of one agent for a question (a handful of statements: vocabulary, candidates, short-word fallback). */
export async function searchPassages(db: AgentsDb, agentId: string, question: string, k = 5, candidates = 40): Promise<Passage[]> {
  const rows = dialectOf(db) === 'postgres' ? await trigramCandidates(db, agentId, ftsPhrases(question), candidates) : await sqliteCandidates(db, agentId, question, candidates);
  const short = shortJapaneseTerms(question);
  if (rows.length < k && short.length > 0) {
    const extra = await likeCandidates(db, agentId, short, candidates);
    const seen = new Set(rows.map((r) => r.id));
    for (const r of extra) if (!seen.has(r.id)) rows.push(r);
  }
  const q = new Set(terms(question));
  const scored = rows.map((r, i) => {
    const all = overlap(q, `${r.question}\n${r.text}`);
    const score = r.kind === 'qa' ? Math.max(all * 0.9, overlap(q, r.question) * 1.05) : all * 0.95;
    return { id: r.id, sourceId: r.source_id, kind: r.kind, question: r.question, text: r.text, score: score - i * 1e-4 } satisfies Passage;
  });
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, k);
}

/** Minimum coverage for a passage to count as an answer (below it the local engine says it does not know). */
export const ANSWER_THRESHOLD = 0.5;

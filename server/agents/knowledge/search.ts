import { dialectOf } from '../../core/db/database';
import type { AgentsDb } from '../schema';
import { ftsCandidates, fullTextCandidates, gramDocCounts, likeCandidates, replaceSourcePassages, trigramCandidates, trigramDocCounts, wordDocCounts, type CandidateRow, type PassageInsert } from './passages.repository';
import { chunk, ftsPhrases, hasJapanese, matchExpression, shortJapaneseTerms, terms, trigramsOf } from './text';

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

/** Matching documents a query may touch: phrases are taken rarest first until their lists add up to this. */
const DOC_BUDGET = 1_500;

/**
 * Document frequencies per connection: of trigrams on SQLite (fts5vocab, which walks the trigram's whole
 * doclist, so a common trigram costs as much as a search), of words on PostgreSQL (counted on the full-text
 * index). Kept until the next indexing on this connection or for FREQUENCY_TTL_MS, so what other processes
 * index is seen. Deletions leave counts high, which only makes a phrase look commoner.
 */
const frequencies = new WeakMap<object, Map<string, { n: number; at: number }>>();
const FREQUENCY_CACHE_MAX = 50_000;
const FREQUENCY_TTL_MS = 60_000;
/** One cache per database handle: a transaction shares its handle's adapter. */
const cacheKey = (db: AgentsDb): object => db.getExecutor().adapter;

async function docCounts(db: AgentsDb, keys: string[], count: (db: AgentsDb, keys: string[]) => Promise<Map<string, number>>): Promise<(key: string) => number> {
  let cache = frequencies.get(cacheKey(db));
  if (!cache || cache.size > FREQUENCY_CACHE_MAX) frequencies.set(cacheKey(db), (cache = new Map()));
  const known = cache;
  const now = Date.now();
  const unknown = [...new Set(keys)].filter((k) => (known.get(k)?.at ?? -Infinity) <= now - FREQUENCY_TTL_MS);
  if (unknown.length) {
    const found = await count(db, unknown);
    for (const k of unknown) known.set(k, { n: found.get(k) ?? 0, at: now });
  }
  return (key) => known.get(key)?.n ?? 0;
}

/**
 * The phrases worth searching, given each one's estimated document frequency: ascending, within the
 * budget, at least the rarest; phrases in no document are left out. When even the rarest are common,
 * the two rarest together (AND): common words would make the ranking score most of the index, rare ones
 * find the same answers.
 */
function rarest(est: { p: string; n: number }[]): { phrases: string[]; all: boolean } {
  const found = est.filter((x) => x.n > 0).sort((a, b) => a.n - b.n);
  const out: string[] = [];
  let total = 0;
  for (const x of found) {
    if (out.length >= 1 && total + x.n > DOC_BUDGET) break;
    out.push(x.p);
    total += x.n;
  }
  if (total > DOC_BUDGET && found.length >= 2) return { phrases: [found[0].p, found[1].p], all: true };
  return { phrases: out, all: false };
}

/** SQLite: FTS5 candidates ranked by bm25 (question weighted 2, text 1), phrases estimated by their rarest trigram. */
async function sqliteCandidates(db: AgentsDb, agentId: string, question: string, candidates: number): Promise<CandidateRow[]> {
  const phrases = ftsPhrases(question);
  let sel = { phrases, all: false };
  if (phrases.length > 1) {
    const docs = await docCounts(db, phrases.flatMap(trigramsOf), trigramDocCounts);
    sel = rarest(phrases.map((p) => ({ p, n: Math.min(...trigramsOf(p).map(docs)) })));
  }
  const match = matchExpression(sel.phrases, sel.all ? 'AND' : 'OR');
  if (!match) return [];
  return ftsCandidates(db, agentId, match, candidates);
}

/**
 * PostgreSQL: words of word-separated scripts on the full-text index (the rarer ones, as on SQLite, so
 * a question never reads most of an agent's passages), Japanese trigrams on the `grams` array index, chosen the same way.
 */
async function postgresCandidates(db: AgentsDb, agentId: string, question: string, candidates: number): Promise<CandidateRow[]> {
  const phrases = ftsPhrases(question);
  const japanese = phrases.filter(hasJapanese);
  const words = [...new Set(phrases.filter((p) => !hasJapanese(p)).flatMap((p) => p.split(/[^\p{L}\p{N}]+/u)))].filter((w) => [...w].length >= 3);
  const rows: CandidateRow[] = [];
  if (words.length > 0) {
    let sel = { phrases: words, all: false };
    if (words.length > 1) {
      const docs = await docCounts(db, words, wordDocCounts);
      sel = rarest(words.map((p) => ({ p, n: docs(p) })));
    }
    rows.push(...(await fullTextCandidates(db, agentId, sel.phrases, sel.all ? 'AND' : 'OR', candidates)));
  }
  if (japanese.length > 0) {
    let sel = { phrases: japanese, all: false };
    if (japanese.length > 1) {
      const docs = await docCounts(db, japanese, gramDocCounts);
      sel = rarest(japanese.map((p) => ({ p, n: docs(p) })));
    }
    const seen = new Set(rows.map((r) => r.id));
    for (const r of await trigramCandidates(db, agentId, sel.phrases, sel.all ? 'AND' : 'OR', candidates)) if (!seen.has(r.id)) rows.push(r);
  }
  return rows;
}

/**
 * Best passages of one agent for a question (a handful of statements: frequencies, candidates, short-word
 * fallback), scored by how much of the question's content they cover. Two-character Japanese words (too
 * short for trigrams) are matched with LIKE when nothing else is searchable.
 */
export async function searchPassages(db: AgentsDb, agentId: string, question: string, k = 5, candidates = 40): Promise<Passage[]> {
  const rows = dialectOf(db) === 'postgres' ? await postgresCandidates(db, agentId, question, candidates) : await sqliteCandidates(db, agentId, question, candidates);
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

import { dialectOf, stmt, type Db } from '../db';
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

/** Replace a source's passages: Q&A is one passage (question + answer), anything else is chunked. */
export function indexSource(db: Db, s: IndexInput): number {
  frequencies.delete(db);
  db.prepare('DELETE FROM passages WHERE source_id = ?').run(s.sourceId);
  const ins = db.prepare('INSERT INTO passages (workspace_id, agent_id, source_id, kind, question, text) VALUES (?, ?, ?, ?, ?, ?)');
  if (s.type === 'qa') {
    if (!s.question.trim() && !s.answer.trim()) return 0;
    ins.run(s.ws, s.agentId, s.sourceId, 'qa', s.question.trim(), s.answer.trim());
    return 1;
  }
  const parts = chunk(s.content);
  for (const p of parts) ins.run(s.ws, s.agentId, s.sourceId, 'text', '', p);
  return parts.length;
}

interface Row {
  id: number;
  source_id: string;
  kind: 'text' | 'qa';
  question: string;
  text: string;
  rank: number;
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
const frequencies = new WeakMap<Db, Map<string, number>>();
const FREQUENCY_CACHE_MAX = 50_000;

function selectPhrases(db: Db, phrases: string[]): { phrases: string[]; all: boolean } {
  if (phrases.length <= 1) return { phrases, all: false };
  const df = stmt(db, 'SELECT doc FROM passages_vocab WHERE term = ?');
  let cache = frequencies.get(db);
  if (!cache || cache.size > FREQUENCY_CACHE_MAX) frequencies.set(db, (cache = new Map()));
  const known = cache;
  const docs = (tri: string) => {
    let n = known.get(tri);
    if (n === undefined) {
      n = (df.get(tri) as { doc: number } | undefined)?.doc ?? 0;
      known.set(tri, n);
    }
    return n;
  };
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
function sqliteCandidates(db: Db, agentId: string, question: string, candidates: number): Row[] {
  const sel = selectPhrases(db, ftsPhrases(question));
  const match = matchExpression(sel.phrases, sel.all ? 'AND' : 'OR');
  if (!match) return [];
  return stmt(
    db,
    `SELECT p.id, p.source_id, p.kind, p.question, p.text, bm25(passages_fts, 2.0, 1.0) AS rank
         FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid
        WHERE passages_fts MATCH ? AND p.agent_id = ?
        ORDER BY rank LIMIT ?`,
  ).all(match, agentId, candidates) as Row[];
}

const likeArg = (phrase: string) => `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * PostgreSQL (pg_trgm indexes): passages holding any of the phrases as a substring, case-insensitive
 * like the FTS5 trigram tokenizer, ranked by the phrases they hold (question weighted 2, text 1).
 */
function postgresCandidates(db: Db, agentId: string, question: string, candidates: number): Row[] {
  const phrases = ftsPhrases(question);
  if (phrases.length === 0) return [];
  const has = (col: string) => `${col} LIKE ? ESCAPE '\\'`;
  const score = phrases.map(() => `(CASE WHEN ${has('p.question')} THEN 2 ELSE 0 END + CASE WHEN ${has('p.text')} THEN 1 ELSE 0 END)`).join(' + ');
  const any = phrases.map(() => `${has('p.question')} OR ${has('p.text')}`).join(' OR ');
  const args = phrases.flatMap((p) => [likeArg(p), likeArg(p)]);
  return db
    .prepare(`SELECT p.id, p.source_id, p.kind, p.question, p.text, -(${score}) AS rank FROM passages p WHERE p.agent_id = ? AND (${any}) ORDER BY rank, p.id LIMIT ?`)
    .all(...args, agentId, ...args, candidates) as Row[];
}

export function searchPassages(db: Db, agentId: string, question: string, k = 5, candidates = 40): Passage[] {
  const rows = dialectOf(db) === 'postgres' ? postgresCandidates(db, agentId, question, candidates) : sqliteCandidates(db, agentId, question, candidates);
  const short = shortJapaneseTerms(question);
  if (rows.length < k && short.length > 0) {
    const like = short.map(() => '(p.question LIKE ? OR p.text LIKE ?)').join(' OR ');
    const args = short.flatMap((t) => [`%${t}%`, `%${t}%`]);
    const extra = db
      .prepare(`SELECT p.id, p.source_id, p.kind, p.question, p.text, 0 AS rank FROM passages p WHERE p.agent_id = ? AND (${like}) LIMIT ?`)
      .all(agentId, ...args, candidates) as Row[];
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

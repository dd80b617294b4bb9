import { sql } from 'kysely';
import { dialectOf } from '../../core/db/database';
import type { AgentsDb } from '../schema';
import { countAll } from '../sql';

/** Indexed passages of the agents' knowledge sources: written per source, searched per agent. */

export interface PassageInsert {
  kind: 'text' | 'qa';
  question: string;
  text: string;
}

export interface CandidateRow {
  id: number;
  source_id: string;
  kind: 'text' | 'qa';
  question: string;
  text: string;
}

/** Passages written per INSERT when a source is re-indexed. */
const PASSAGE_BATCH = 500;

/**
 * Inside the caller's transaction: locks the source (PostgreSQL: its row, FOR UPDATE; SQLite's
 * BEGIN IMMEDIATE already holds the write lock), drops its passages and writes the new ones in batches.
 */
export async function replaceSourcePassages(tx: AgentsDb, ws: string, agentId: string, sourceId: string, passages: PassageInsert[]): Promise<void> {
  if (dialectOf(tx) === 'postgres') {
    await tx.selectFrom('sources').select('id').where('id', '=', sourceId).where('workspace_id', '=', ws).forUpdate().executeTakeFirst();
  }
  await tx.deleteFrom('passages').where('source_id', '=', sourceId).where('workspace_id', '=', ws).execute();
  for (let i = 0; i < passages.length; i += PASSAGE_BATCH) {
    const rows = passages.slice(i, i + PASSAGE_BATCH).map((p) => ({ workspace_id: ws, agent_id: agentId, source_id: sourceId, kind: p.kind, question: p.question, text: p.text }));
    await tx.insertInto('passages').values(rows).execute();
  }
}

export async function deleteSourcePassages(db: AgentsDb, ws: string, sourceId: string): Promise<void> {
  await db.deleteFrom('passages').where('source_id', '=', sourceId).where('workspace_id', '=', ws).execute();
}

export async function countAgentPassages(db: AgentsDb, ws: string, agentId: string): Promise<number> {
  const r = await db.selectFrom('passages').select(countAll().as('n')).where('workspace_id', '=', ws).where('agent_id', '=', agentId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** SQLite: how many passages hold each trigram (fts5vocab over the FTS5 index), for the trigrams asked. */
export async function trigramDocCounts(db: AgentsDb, trigrams: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (trigrams.length === 0) return out;
  const rows = await db.selectFrom('passages_vocab').select(['term', 'doc']).where('term', 'in', trigrams).execute();
  for (const r of rows) if (r.term !== null) out.set(r.term, Number(r.doc ?? 0));
  return out;
}

const CANDIDATE_COLUMNS = ['p.id', 'p.source_id', 'p.kind', 'p.question', 'p.text'] as const;

/** SQLite: FTS5 (trigram tokenizer) candidates of one agent ranked by bm25, question weighted 2, text 1. */
export async function ftsCandidates(db: AgentsDb, agentId: string, match: string, limit: number): Promise<CandidateRow[]> {
  const rows = await db
    .selectFrom('passages_fts')
    .innerJoin('passages as p', (j) => j.on(sql<boolean>`p.id = passages_fts.rowid`))
    .select(CANDIDATE_COLUMNS)
    .where(sql<boolean>`passages_fts MATCH ${match}`)
    .where('p.agent_id', '=', agentId)
    .orderBy(sql`bm25(passages_fts, 2.0, 1.0)`)
    .limit(limit)
    .$narrowType<{ kind: 'text' | 'qa' }>()
    .execute();
  return rows;
}

/** PostgreSQL: a word's passages are counted up to this many (enough to tell rare from common). */
const WORD_COUNT_CAP = 10_000;

/** `w1:* | w2:*` (or `&`): words are letters and digits only, so the text is always a valid tsquery. */
const tsQueryText = (words: string[], op: 'OR' | 'AND') => words.map((w) => `${w}:*`).join(op === 'AND' ? ' & ' : ' | ');

/**
 * PostgreSQL: how many passages (of every agent, as the index holds them) hold a word starting with each
 * of the words asked, counted on the full-text GIN index up to WORD_COUNT_CAP.
 */
export async function wordDocCounts(db: AgentsDb, words: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (words.length === 0) return out;
  const { rows } = await sql<{ term: string; doc: string | number }>`
    SELECT w AS term, (SELECT count(*) FROM (SELECT 1 FROM passages WHERE tsv @@ to_tsquery('simple', w || ':*') LIMIT ${WORD_COUNT_CAP}) s) AS doc
    FROM unnest(${words}::text[]) AS w`.execute(db);
  for (const r of rows) out.set(r.term, Number(r.doc));
  return out;
}

/**
 * PostgreSQL (GIN index on the stored tsvector `tsv`, migration 059): passages of one agent holding a word
 * starting with any (or every, with AND) of the words, ranked by ts_rank with the question weighted 2, text 1.
 */
export async function fullTextCandidates(db: AgentsDb, agentId: string, words: string[], op: 'OR' | 'AND', limit: number): Promise<CandidateRow[]> {
  if (words.length === 0) return [];
  const query = sql`to_tsquery('simple', ${tsQueryText(words, op)})`;
  return db
    .selectFrom('passages as p')
    .select(CANDIDATE_COLUMNS)
    .where('p.agent_id', '=', agentId)
    .where(sql<boolean>`p.tsv @@ ${query}`)
    .orderBy(sql`ts_rank('{0.5,0.5,0.5,1.0}'::float4[], p.tsv, ${query})`, 'desc')
    .orderBy('p.id')
    .limit(limit)
    .$narrowType<{ kind: 'text' | 'qa' }>()
    .execute();
}

/** PostgreSQL: how many passages hold each Japanese trigram (the `grams` GIN index, migration 059), up to WORD_COUNT_CAP. */
export async function gramDocCounts(db: AgentsDb, grams: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (grams.length === 0) return out;
  const { rows } = await sql<{ term: string; doc: string | number }>`
    SELECT g AS term, (SELECT count(*) FROM (SELECT 1 FROM passages WHERE grams @> ARRAY[g] LIMIT ${WORD_COUNT_CAP}) s) AS doc
    FROM unnest(${grams}::text[]) AS g`.execute(db);
  for (const r of rows) out.set(r.term, Number(r.doc));
  return out;
}

/** `%phrase%` with LIKE's wildcards escaped (PostgreSQL's default escape character is the backslash). */
const likeArg = (phrase: string) => `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * PostgreSQL, for text without spaces (Japanese): passages of one agent holding any (or every, with AND) of the trigrams (found
 * on the `grams` GIN index, migration 059), ranked by the trigrams they hold as substrings (question
 * weighted 2, text 1).
 */
export async function trigramCandidates(db: AgentsDb, agentId: string, phrases: string[], op: 'OR' | 'AND', limit: number): Promise<CandidateRow[]> {
  if (phrases.length === 0) return [];
  const args = phrases.map(likeArg);
  const score = sql.join(
    args.map((a) => sql`(CASE WHEN p.question ILIKE ${a} THEN 2 ELSE 0 END + CASE WHEN p.text ILIKE ${a} THEN 1 ELSE 0 END)`),
    sql` + `,
  );
  return db
    .selectFrom('passages as p')
    .select(CANDIDATE_COLUMNS)
    .where('p.agent_id', '=', agentId)
    .where(op === 'AND' ? sql<boolean>`p.grams @> ${phrases}::text[]` : sql<boolean>`p.grams && ${phrases}::text[]`)
    .orderBy(sql`${score}`, 'desc')
    .orderBy('p.id')
    .limit(limit)
    .$narrowType<{ kind: 'text' | 'qa' }>()
    .execute();
}

/** Passages of one agent holding any of the (short, Japanese) terms: what the trigram index cannot find. */
export async function likeCandidates(db: AgentsDb, agentId: string, words: string[], limit: number): Promise<CandidateRow[]> {
  if (words.length === 0) return [];
  return db
    .selectFrom('passages as p')
    .select(CANDIDATE_COLUMNS)
    .where('p.agent_id', '=', agentId)
    .where((eb) => eb.or(words.flatMap((w) => [eb('p.question', 'like', `%${w}%`), eb('p.text', 'like', `%${w}%`)])))
    .limit(limit)
    .$narrowType<{ kind: 'text' | 'qa' }>()
    .execute();
}

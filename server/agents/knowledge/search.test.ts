import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../core/db/database';
import { startAgentsServer, type AgentsTestServer } from '../harness.testkit';
import { ANSWER_THRESHOLD, indexSource, searchPassages } from './search';
import { chunk, ftsQuery } from './text';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

let fixtures = 0;

/** Two agents of one workspace, with sources indexed through indexSource (in a transaction, as the service does). */
async function fixture() {
  const db = t.ctx.db;
  const n0 = ++fixtures;
  const [u, w] = [`u${n0}`, `w${n0}`];
  await db.insertInto('users').values({ id: u, email: `${u}@example.com`, password_hash: 'x', created_at: 0 }).execute();
  await db.insertInto('workspaces').values({ id: w, name: 'W', owner_id: u, created_at: 0 }).execute();
  const agent = (a: string) => `${w}-${a}`;
  for (const a of ['a1', 'a2']) {
    await db.insertInto('agents').values({ id: agent(a), workspace_id: w, name: 'A', public_id: `p${agent(a)}`, agent_email: 'x', created_at: 0, updated_at: 0 }).execute();
  }
  let n = 0;
  const add = async (a: string, type: string, content: string, question = '', answer = '') => {
    const id = `${w}-s${++n}`;
    await db.insertInto('sources').values({ id, workspace_id: w, agent_id: agent(a), type, name: 'n', content, question, answer, created_at: 0, updated_at: 0 }).execute();
    await db.transaction().execute((tx) => indexSource(tx, { ws: w, agentId: agent(a), sourceId: id, type, content, question, answer }));
    return id;
  };
  const ids = {
    hours: await add('a1', 'qa', '', 'What are your opening hours?', 'We open at 9:00 and close at 18:00.'),
    refund: await add('a1', 'qa', '', 'How do I get a refund?', 'Send the item back within 30 days and we refund the card.'),
    wifi: await add('a1', 'qa', '', 'Is there free wifi in the store?', 'Yes, the network is called SHOP-FREE.'),
    parking: await add('a1', 'qa', '', '駐車場はありますか？', '店舗の裏に20台分の無料駐車場があります。'),
    fee: await add('a1', 'qa', '', '入会金はかかりますか？', '入会金は不要です。月会費のみお支払いください。'),
    text: await add('a1', 'text', 'Our bakery uses organic flour from Hokkaido. Every loaf is baked fresh each morning before seven.'),
    other: await add('a2', 'qa', '', 'What are your opening hours?', 'Agent two never closes.'),
  };
  return { db, ids, a1: agent('a1'), a2: agent('a2'), ws: w, add };
}

describe('knowledge retrieval (trigram FTS5)', () => {
  it('answers each question from the right Q&A pair, paraphrased, in English and Japanese', async () => {
    const { db, ids, a1 } = await fixture();
    const cases: [string, string][] = [
      ['when do you open?', ids.hours],
      ['what hours are you open', ids.hours],
      ['can I get my money back, a refund?', ids.refund],
      ['do you have wifi', ids.wifi],
      ['駐車場はある？', ids.parking],
      ['入会金について教えて', ids.fee],
      ['is the flour organic?', ids.text],
    ];
    for (const [q, want] of cases) {
      const best = (await searchPassages(db, a1, q))[0];
      expect(best?.sourceId, q).toBe(want);
      expect(best.score, q).toBeGreaterThanOrEqual(ANSWER_THRESHOLD);
    }
  });

  it('finds nothing good enough for unrelated questions', async () => {
    const { db, a1 } = await fixture();
    for (const q of ['Who painted the Mona Lisa?', 'What is the capital of Australia?', '明日の天気は？', 'recommend a good movie']) {
      const best = (await searchPassages(db, a1, q))[0];
      expect(best === undefined || best.score < ANSWER_THRESHOLD, q).toBe(true);
    }
  });

  it("never returns another agent's passages", async () => {
    const { db, ids, a2 } = await fixture();
    const found = await searchPassages(db, a2, 'What are your opening hours?', 10);
    expect(found.map((p) => p.sourceId)).toEqual([ids.other]);
  });

  it('re-indexes a source of more passages than one batch holds, replacing the old ones, and finds the last', async () => {
    const { db, a1, ws, add } = await fixture();
    const long = Array.from({ length: 1_100 }, (_, i) => `Passage number ${i} talks about item${i}zq. ${'Filler words make it long enough. '.repeat(20)}`).join('\n\n');
    const id = await add('a1', 'text', long);
    const count = async () => (await db.selectFrom('passages').select('id').where('source_id', '=', id).where('workspace_id', '=', ws).execute()).length;
    const first = await count();
    expect(first).toBeGreaterThan(1_000);
    await db.transaction().execute((tx) => indexSource(tx, { ws, agentId: a1, sourceId: id, type: 'text', content: long, question: '', answer: '' }));
    expect(await count()).toBe(first);
    expect((await searchPassages(db, a1, 'item1099zq'))[0]?.sourceId).toBe(id);
  });

  it('reads search operators in a question as words, never as query syntax', async () => {
    const { db, ids, a1 } = await fixture();
    for (const q of ["wi-fi: & | ! ( ) <-> * ' \\ %_ \"free\" wifi?", "refund's:* & !card | (money)", ':*:*:* &&& |||']) {
      const found = await searchPassages(db, a1, q);
      if (q.includes('wifi')) expect(found[0]?.sourceId, q).toBe(ids.wifi);
      if (q.includes('refund')) expect(found[0]?.sourceId, q).toBe(ids.refund);
    }
  });

  it('on PostgreSQL, keeps words and Japanese trigrams of every passage in GIN-indexed columns the search can use', async () => {
    const { db, ids } = await fixture();
    if (dialectOf(db) !== 'postgres') return;
    const { rows } = await sql<{ grams: string[]; words: boolean }>`SELECT grams, tsv @@ to_tsquery('simple', 'open:* & hour:*') AS words FROM passages WHERE source_id IN (${ids.parking}, ${ids.hours}) ORDER BY source_id = ${ids.hours}`.execute(db);
    expect(rows[0].grams).toEqual(expect.arrayContaining(['駐車場', '車場は', '台分の', '無料駐']));
    expect(rows[0].words).toBe(false);
    expect(rows[1]).toEqual({ grams: [], words: true });
    const plans = await db.transaction().execute(async (tx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(tx);
      const plan = async (q: ReturnType<typeof sql<Record<string, string>>>) => (await q.execute(tx)).rows.map((r) => Object.values(r).join('')).join('\n');
      return [await plan(sql`EXPLAIN SELECT id FROM passages WHERE tsv @@ to_tsquery('simple', 'refund:*')`), await plan(sql`EXPLAIN SELECT id FROM passages WHERE grams && ${['駐車場']}::text[]`)];
    });
    expect(plans[0]).toContain('passages_tsv');
    expect(plans[1]).toContain('passages_grams');
    // the pg_trgm indexes of 001, which no retrieval statement read, are gone (060); the ones retrieval reads stay
    const indexes = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'passages' AND schemaname = current_schema() ORDER BY indexname`.execute(db);
    const names = indexes.rows.map((r) => r.indexname);
    expect(names.filter((n) => n.includes('trgm'))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['passages_agent', 'passages_grams', 'passages_tsv']));
  });

  it('builds safe MATCH expressions and chunks long text at sentence ends', () => {
    expect(ftsQuery('"; DROP TABLE x; --')).toBe('"drop" OR "table"');
    expect(ftsQuery('a an to')).toBeNull();
    const parts = chunk('First sentence here. '.repeat(100), 200);
    expect(parts.every((p) => p.length <= 200)).toBe(true);
    expect(parts[0].endsWith('.')).toBe(true);
  });
});

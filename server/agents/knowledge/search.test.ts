import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../store.testkit';
import { ANSWER_THRESHOLD, indexSource, searchPassages } from './search';
import { chunk, ftsQuery } from './text';

let store: TestStore;
beforeEach(async () => void (store = await openTestStore()));
afterEach(() => store.close());

function fixture() {
  const db = store.legacy;
  db.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u', 'u@example.com', 'x', 0)").run();
  db.prepare("INSERT INTO workspaces (id, name, owner_id, created_at) VALUES ('w', 'W', 'u', 0)").run();
  for (const a of ['a1', 'a2']) {
    db.prepare("INSERT INTO agents (id, workspace_id, name, public_id, agent_email, created_at, updated_at) VALUES (?, 'w', 'A', ?, 'x', 0, 0)").run(a, `p${a}`);
  }
  let n = 0;
  const add = (agent: string, type: string, content: string, question = '', answer = '') => {
    const id = `s${++n}`;
    db.prepare("INSERT INTO sources (id, workspace_id, agent_id, type, name, content, question, answer, created_at, updated_at) VALUES (?, 'w', ?, ?, 'n', ?, ?, ?, 0, 0)").run(id, agent, type, content, question, answer);
    indexSource(db, { ws: 'w', agentId: agent, sourceId: id, type, content, question, answer });
    return id;
  };
  const ids = {
    hours: add('a1', 'qa', '', 'What are your opening hours?', 'We open at 9:00 and close at 18:00.'),
    refund: add('a1', 'qa', '', 'How do I get a refund?', 'Send the item back within 30 days and we refund the card.'),
    wifi: add('a1', 'qa', '', 'Is there free wifi in the store?', 'Yes, the network is called SHOP-FREE.'),
    parking: add('a1', 'qa', '', '駐車場はありますか？', '店舗の裏に20台分の無料駐車場があります。'),
    fee: add('a1', 'qa', '', '入会金はかかりますか？', '入会金は不要です。月会費のみお支払いください。'),
    text: add('a1', 'text', 'Our bakery uses organic flour from Hokkaido. Every loaf is baked fresh each morning before seven.'),
    other: add('a2', 'qa', '', 'What are your opening hours?', 'Agent two never closes.'),
  };
  return { db, ids };
}

describe('knowledge retrieval (trigram FTS5)', () => {
  it('answers each question from the right Q&A pair, paraphrased, in English and Japanese', () => {
    const { db, ids } = fixture();
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
      const best = searchPassages(db, 'a1', q)[0];
      expect(best?.sourceId, q).toBe(want);
      expect(best.score, q).toBeGreaterThanOrEqual(ANSWER_THRESHOLD);
    }
  });

  it('finds nothing good enough for unrelated questions', () => {
    const { db } = fixture();
    for (const q of ['Who painted the Mona Lisa?', 'What is the capital of Australia?', '明日の天気は？', 'recommend a good movie']) {
      const best = searchPassages(db, 'a1', q)[0];
      expect(best === undefined || best.score < ANSWER_THRESHOLD, q).toBe(true);
    }
  });

  it("never returns another agent's passages", () => {
    const { db, ids } = fixture();
    const found = searchPassages(db, 'a2', 'What are your opening hours?', 10);
    expect(found.map((p) => p.sourceId)).toEqual([ids.other]);
  });

  it('builds safe MATCH expressions and chunks long text at sentence ends', () => {
    expect(ftsQuery('"; DROP TABLE x; --')).toBe('"drop" OR "table"');
    expect(ftsQuery('a an to')).toBeNull();
    const parts = chunk('First sentence here. '.repeat(100), 200);
    expect(parts.every((p) => p.length <= 200)).toBe(true);
    expect(parts[0].endsWith('.')).toBe(true);
  });
});

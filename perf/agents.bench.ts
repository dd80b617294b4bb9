/**
 * Agent Platform benchmark (not a test): `npm run perf:agents`.
 * (a) Public widget chat with the local engine: 50 concurrent visitors, each keeping its conversation,
 * against an agent with 10,000 indexed passages; turns/s and p50/p99 latency, next to a bare express
 * route (JSON in, JSON out) driven by the same client in the same run.
 * (b) Retrieval time (trigram FTS5 + scoring) at 1,000 versus 100,000 passages of one agent.
 */
import express from 'express';
import { Agent, request } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentsApp } from '../server/agents/app';
import { testAgentsConfig } from '../server/agents/config.testkit';
import { RateLimiter } from '../server/core/http/rate-limit';
import { openAgentsDb, type Db } from '../server/agents/db';
import { indexSource, searchPassages } from '../server/agents/knowledge/search';

const VISITORS = Number(process.env.PERF_VISITORS ?? 50);
const TURNS = Number(process.env.PERF_TURNS ?? 2000);
const PASSAGES = Number(process.env.PERF_PASSAGES ?? 10_000);
const QUERIES = Number(process.env.PERF_QUERIES ?? 300);

/** Deterministic PRNG so every run indexes the same corpus. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const NOUNS = 'account address battery bill booking box cable camera card cart charger coupon courier customer delivery device discount driver email engine fee file flight gift guarantee hotel invoice item key laptop license locker manual membership menu monitor network office order package parcel password payment phone plan point printer product receipt refund repair reservation room router schedule screen seat service shipment shop size software station store subscription support table ticket tracking train upgrade voucher warranty wifi window'.split(' ');
const VERBS = 'activate apply book cancel change charge check collect confirm connect contact create deliver download exchange extend install open order pay print receive register reset restore return schedule send ship sign track transfer update upgrade verify'.split(' ');
const ADJ = 'annual available broken damaged digital express extra free international late local lost monthly new online premium quick regular secure small special standard weekly wireless'.split(' ');
const JA = ['配送', '返品', '料金', '会員', '予約', '在庫', '保証', '修理', '支払い', '領収書', '駐車場', '営業時間'];

function sentence(r: () => number): string {
  const p = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  return `To ${p(VERBS)} a ${p(ADJ)} ${p(NOUNS)}, ${p(VERBS)} the ${p(NOUNS)} within ${1 + Math.floor(r() * 30)} days and keep the ${p(ADJ)} ${p(NOUNS)}.`;
}

/** `count` passages for one agent: one in ten a Q&A pair, one in twenty with Japanese text. */
function fillAgent(db: Db, ws: string, agentId: string, count: number, seed: number): string[] {
  const r = rng(seed);
  const questions: string[] = [];
  const insSource = db.prepare("INSERT INTO sources (id, workspace_id, agent_id, type, name, content, question, answer, created_at, updated_at) VALUES (?, ?, ?, ?, 'bench', ?, ?, ?, 0, 0)");
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `src_bench_${agentId}_${i}`;
      if (i % 10 === 0) {
        const q = `How do I ${VERBS[i % VERBS.length]} my ${ADJ[(i >> 3) % ADJ.length]} ${NOUNS[(i >> 1) % NOUNS.length]}?`;
        const a = sentence(r);
        insSource.run(id, ws, agentId, 'qa', `${q}\n${a}`, q, a);
        indexSource(db, { ws, agentId, sourceId: id, type: 'qa', content: '', question: q, answer: a });
        questions.push(q);
      } else {
        const text = `${sentence(r)} ${sentence(r)}${i % 20 === 1 ? ` ${JA[i % JA.length]}については、${JA[(i >> 2) % JA.length]}の窓口でご確認ください。` : ''}`;
        insSource.run(id, ws, agentId, 'text', text, '', '');
        indexSource(db, { ws, agentId, sourceId: id, type: 'text', content: text, question: '', answer: '' });
      }
    }
  })();
  return questions;
}

function listen(app: express.Express): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    // A loaded machine can leave a kept-alive socket idle longer than Node's 5 s default.
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 121_000;
  });
}

function post(agent: Agent, port: number, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** VISITORS concurrent visitors sending `turns` messages in all; each visitor keeps its conversation. */
async function drive(port: number, path: string, messages: string[], turns: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: VISITORS });
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: VISITORS }, async () => {
      let conversationId: string | undefined;
      while (next < turns) {
        const i = next++;
        const t0 = performance.now();
        const body = JSON.stringify({ message: messages[i % messages.length], ...(conversationId ? { conversationId } : {}) });
        const res = await post(agent, port, path, body).catch(() => post(agent, port, path, body));
        lat.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
        conversationId ??= (JSON.parse(res.text) as { conversationId?: string }).conversationId;
      }
    }),
  );
  agent.destroy();
  const secs = (performance.now() - start) / 1000;
  return { perSec: turns / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function chatBench() {
  const dir = mkdtempSync(join(tmpdir(), 'agents-bench-'));
  const open = () => new RateLimiter(Number.MAX_SAFE_INTEGER, 60_000);
  const { app, ctx, close } = createAgentsApp({
    config: testAgentsConfig(dir, { signupCredits: 1_000_000 }),
    log: () => {},
    limits: { auth: open(), publicConfig: open(), publicPost: open(), publicPoll: open(), publicAvatarVideo: open(), chat: open() },
  });
  const { server, port } = await listen(app);
  const reg = await post(new Agent(), port, '/api/auth/register', JSON.stringify({ email: 'bench@example.com', password: 'bench-pass' }));
  const token = (JSON.parse(reg.text) as { token: string }).token;
  const created = await new Promise<string>((resolve, reject) => {
    const body = JSON.stringify({ name: 'Bench' });
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/agents', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let t = '';
      res.on('data', (c: Buffer) => (t += c.toString()));
      res.on('end', () => resolve(t));
    });
    req.on('error', reject);
    req.end(body);
  });
  const agent = (JSON.parse(created) as { agent: { id: string; public_id: string; } }).agent;
  const ws = (ctx.db.prepare('SELECT workspace_id AS ws FROM agents WHERE id = ?').get(agent.id) as { ws: string }).ws;
  const t0 = performance.now();
  const questions = fillAgent(ctx.db, ws, agent.id, PASSAGES, 7);
  const indexSecs = (performance.now() - t0) / 1000;
  const messages = [...questions.slice(0, 40), 'Who won the world cup in 1998?', 'How do I return a damaged parcel?', '配送について教えてください', 'hello'];

  const bare = express();
  bare.use(express.json({ limit: '1mb' }));
  bare.post('/chat', (req, res) => {
    const body = req.body as { message?: string; conversationId?: string };
    res.json({ reply: `echo: ${String(body.message ?? '').slice(0, 50)}`, conversationId: body.conversationId ?? 'c1', engine: 'none' });
  });
  const b = await listen(bare);
  const warm = Math.ceil(TURNS / 10);
  await drive(b.port, '/chat', messages, warm);
  await drive(port, `/api/public/${agent.public_id}/chat`, messages, warm);
  const baseline = await drive(b.port, '/chat', messages, TURNS);
  const chat = await drive(port, `/api/public/${agent.public_id}/chat`, messages, TURNS);
  b.server.close();
  server.close();
  await close();
  rmSync(dir, { recursive: true, force: true });
  return { baseline, chat, indexSecs };
}

function retrievalAt(count: number) {
  const db = openAgentsDb(':memory:');
  db.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u', 'u@x', 'x', 0)").run();
  db.prepare("INSERT INTO workspaces (id, name, owner_id, created_at) VALUES ('w', 'W', 'u', 0)").run();
  db.prepare("INSERT INTO agents (id, workspace_id, name, public_id, agent_email, created_at, updated_at) VALUES ('a', 'w', 'A', 'p', 'x', 0, 0)").run();
  const t0 = performance.now();
  const questions = fillAgent(db, 'w', 'a', count, 11);
  const indexSecs = (performance.now() - t0) / 1000;
  const r = rng(3);
  const queries = Array.from({ length: QUERIES }, (_, i) =>
    i % 4 === 0 ? questions[Math.floor(r() * questions.length)] : i % 4 === 1 ? `can you ${VERBS[i % VERBS.length]} the ${NOUNS[(i * 7) % NOUNS.length]}` : i % 4 === 2 ? `${JA[i % JA.length]}について教えて` : 'what is the capital of australia',
  );
  for (const q of queries.slice(0, 20)) searchPassages(db, 'a', q);
  const lat: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const s = performance.now();
    const found = searchPassages(db, 'a', q);
    lat.push(performance.now() - s);
    if (found.length) hits++;
  }
  db.close();
  return { count, indexSecs, mean: lat.reduce((a, x) => a + x, 0) / lat.length, p99: pct(lat, 99), hits };
}

async function main() {
  console.log(`agents benchmark: ${VISITORS} visitors, ${TURNS} turns, ${PASSAGES} passages`);
  if (process.env.PERF_SKIP_CHAT !== '1') {
    const { baseline, chat, indexSecs } = await chatBench();
    console.log(`indexing ${PASSAGES} passages: ${indexSecs.toFixed(1)} s`);
    console.log(`bare express route : ${baseline.perSec.toFixed(0)} req/s, p50 ${baseline.p50.toFixed(1)} ms, p99 ${baseline.p99.toFixed(1)} ms`);
    console.log(`public widget chat : ${chat.perSec.toFixed(0)} turns/s, p50 ${chat.p50.toFixed(1)} ms, p99 ${chat.p99.toFixed(1)} ms`);
    console.log(`chat / bare        : ${(chat.perSec / baseline.perSec).toFixed(3)} of the bare route's throughput`);
  }
  const small = retrievalAt(1_000);
  const large = retrievalAt(Number(process.env.PERF_RETRIEVAL_LARGE ?? 100_000));
  for (const x of [small, large]) console.log(`retrieval @ ${x.count.toLocaleString('en')} passages: mean ${x.mean.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms (indexed in ${x.indexSecs.toFixed(1)} s, ${x.hits}/${QUERIES} queries with candidates)`);
  console.log(`retrieval ${large.count / 1000}k / 1k: ${(large.mean / small.mean).toFixed(1)}x mean time for ${large.count / small.count}x passages`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

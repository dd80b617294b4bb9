/**
 * The agent-platform benchmark's only contact with the data layer: it seeds a bench account, an agent and
 * its knowledge through the platform's own service functions (the same ones the HTTP routes call), and
 * runs retrieval for perf/agents.bench.ts (b). When the data layer changes, this file is the one to adapt.
 * Every call is awaited, so services that become asynchronous need no other change here.
 */
import type { AgentsContext } from '../server/agents/context';
import { register } from '../server/agents/accounts/accounts.service';
import { membership } from '../server/agents/accounts/session';
import { createAgent } from '../server/agents/agents/agents.service';
import { addSource } from '../server/agents/knowledge/sources.service';
import { searchPassages } from '../server/agents/knowledge/search';

/** Deterministic PRNG so every run indexes the same corpus. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const NOUNS = 'account address battery bill booking box cable camera card cart charger coupon courier customer delivery device discount driver email engine fee file flight gift guarantee hotel invoice item key laptop license locker manual membership menu monitor network office order package parcel password payment phone plan point printer product receipt refund repair reservation room router schedule screen seat service shipment shop size software station store subscription support table ticket tracking train upgrade voucher warranty wifi window'.split(' ');
export const VERBS = 'activate apply book cancel change charge check collect confirm connect contact create deliver download exchange extend install open order pay print receive register reset restore return schedule send ship sign track transfer update upgrade verify'.split(' ');
const ADJ = 'annual available broken damaged digital express extra free international late local lost monthly new online premium quick regular secure small special standard weekly wireless'.split(' ');
export const JA = ['配送', '返品', '料金', '会員', '予約', '在庫', '保証', '修理', '支払い', '領収書', '駐車場', '営業時間'];

function sentence(r: () => number): string {
  const p = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  return `To ${p(VERBS)} a ${p(ADJ)} ${p(NOUNS)}, ${p(VERBS)} the ${p(NOUNS)} within ${1 + Math.floor(r() * 30)} days and keep the ${p(ADJ)} ${p(NOUNS)}.`;
}

export interface SeededAgent {
  agentId: string;
  publicId: string;
  /** The Q&A questions indexed (every tenth source), to ask in the benchmark. */
  questions: string[];
  /** Seconds spent adding the `count` sources (one passage each). */
  indexSecs: number;
}

/**
 * A bench owner (signup credits from the config), one public agent and `count` knowledge sources added one
 * by one through the sources service: one in ten a Q&A pair, one in twenty text with a Japanese sentence.
 * Each source is short enough to be one passage, so `count` sources are `count` indexed passages.
 */
export async function seedBenchAgent(ctx: AgentsContext, count: number, seed: number): Promise<SeededAgent> {
  const user = await register(ctx, `bench-${seed}@example.com`, 'bench-pass-0000', 'Bench');
  const ws = (await membership(ctx, user.id))?.ws;
  if (!ws) throw new Error('the bench account has no workspace');
  const agent = await createAgent(ctx, ws, { name: 'Bench' });
  const r = rng(seed);
  const questions: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    if (i % 10 === 0) {
      const question = `How do I ${VERBS[i % VERBS.length]} my ${ADJ[(i >> 3) % ADJ.length]} ${NOUNS[(i >> 1) % NOUNS.length]}?`;
      await addSource(ctx, agent, { type: 'qa', name: 'bench', question, answer: sentence(r) });
      questions.push(question);
    } else {
      const content = `${sentence(r)} ${sentence(r)}${i % 20 === 1 ? ` ${JA[i % JA.length]}については、${JA[(i >> 2) % JA.length]}の窓口でご確認ください。` : ''}`;
      await addSource(ctx, agent, { type: 'text', name: 'bench', content });
    }
  }
  return { agentId: agent.id, publicId: agent.public_id, questions, indexSecs: (performance.now() - t0) / 1000 };
}

/** Passages retrieval finds for a question (the chat turn's first step), as a count. */
export async function retrieve(ctx: AgentsContext, agentId: string, question: string): Promise<number> {
  return (await searchPassages(ctx.db, agentId, question)).length;
}

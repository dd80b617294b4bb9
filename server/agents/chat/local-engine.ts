import { ANSWER_THRESHOLD, type Passage } from '../knowledge/search';
import { hasJapanese, terms } from '../knowledge/text';
import type { ChatEngine, EngineInput } from './engine';

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|yo|hola|bonjour|こんにちは|こんばんは|おはよう(ございます)?|はじめまして|もしもし)[\s!.！。?？]*$/i;

export const FALLBACK_EN = "I'm sorry, I couldn't find anything about that in what I've been taught. I can connect you with a member of our team if you'd like.";
export const FALLBACK_JA = '申し訳ありません。その内容についてはお答えできる情報が見つかりませんでした。よろしければ担当者におつなぎします。';

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？])\s*|\n+/u).map((s) => s.trim()).filter((s) => s.length > 1);
}

/** The sentences of a passage that carry the question's terms (at most three, in their original order). */
function bestSentences(p: Passage, question: string): string {
  const q = new Set(terms(question));
  const list = sentences(p.text);
  if (list.length <= 3) return list.join(hasJapanese(p.text) ? '' : ' ');
  const scored = list.map((s, i) => {
    const t = new Set(terms(s));
    let n = 0;
    for (const x of q) if (t.has(x)) n++;
    return { s, i, n };
  });
  const top = scored.filter((x) => x.n > 0).sort((a, b) => b.n - a.n || a.i - b.i).slice(0, 3).sort((a, b) => a.i - b.i);
  const chosen = top.length ? top : scored.slice(0, 2);
  return chosen.map((x) => x.s).join(hasJapanese(p.text) ? '' : ' ');
}

/**
 * The built-in engine: answers from the agent's best Q&A pair or passage and says so honestly
 * when nothing it was taught matches the question.
 */
function composeLocalReply(input: EngineInput): { text: string; matched: boolean } {
  if (GREETING.test(input.message)) return { text: input.welcome || (hasJapanese(input.message) ? 'こんにちは！ご用件をお聞かせください。' : 'Hello! How can I help you?'), matched: true };
  const best = input.passages[0];
  if (!best || best.score < ANSWER_THRESHOLD) return { text: hasJapanese(input.message) ? FALLBACK_JA : FALLBACK_EN, matched: false };
  if (best.kind === 'qa') return { text: best.text, matched: true };
  return { text: bestSentences(best, input.message), matched: true };
}

export class LocalEngine implements ChatEngine {
  readonly name = 'local' as const;

  async *stream(input: EngineInput): AsyncIterable<string> {
    const { text } = composeLocalReply(input);
    const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
    // Japanese has no spaces: stream it in short runs instead of one piece.
    for (const piece of pieces) {
      if (piece.length > 24) for (let i = 0; i < piece.length; i += 12) yield piece.slice(i, i + 12);
      else yield piece;
    }
  }
}

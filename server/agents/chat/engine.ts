import type { Passage } from '../knowledge/search';

export type EngineName = 'local' | 'anthropic' | 'openai';

export interface EngineInput {
  agentName: string;
  systemPrompt: string;
  welcome: string;
  model: string;
  temperature: number;
  message: string;
  history: { role: 'user' | 'assistant'; text: string }[];
  passages: Passage[];
}

/** One chat engine: streams the reply as text pieces. */
export interface ChatEngine {
  readonly name: EngineName;
  stream(input: EngineInput): AsyncIterable<string>;
}

export interface EngineSet {
  local: ChatEngine;
  /** The engine for an agent's model: a model engine when its key is set, else the local engine. */
  pick(model: string): ChatEngine;
  available(): EngineName[];
}

/** The system prompt of the model engines: the agent's persona plus the retrieved knowledge. */
export function ragSystemPrompt(input: EngineInput): string {
  const knowledge = input.passages.length
    ? input.passages.map((p, i) => `[${i + 1}] ${p.kind === 'qa' ? `Q: ${p.question}\nA: ${p.text}` : p.text}`).join('\n\n')
    : '(no matching knowledge)';
  return [
    input.systemPrompt || `You are ${input.agentName}.`,
    '',
    'Answer from the knowledge below. If it does not contain the answer, say honestly that you do not know and offer a human operator. Reply in the language of the visitor.',
    '',
    'Knowledge:',
    knowledge,
  ].join('\n');
}

export function createEngineSet(local: ChatEngine, anthropic: ChatEngine | null, openai: ChatEngine | null): EngineSet {
  return {
    local,
    pick(model: string) {
      const m = model.toLowerCase();
      if (m.startsWith('claude') && anthropic) return anthropic;
      if (/^(gpt|o\d|chatgpt)/.test(m) && openai) return openai;
      if (m === 'local') return local;
      return anthropic ?? openai ?? local;
    },
    available() {
      return [...(anthropic ? ['anthropic' as const] : []), ...(openai ? ['openai' as const] : []), 'local' as const];
    },
  };
}

/**
 * The one module that talks to a language-model provider and a web-search provider.
 * Keys come from the environment; without them callers get an honest "not configured".
 */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export function llmConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.ANTHROPIC_API_KEY || env.OPENAI_API_KEY);
}

const SYSTEM = 'あなたは日本の端末キッティングセンターの業務アドバイザーです。簡潔に、日本語で、根拠を示して回答してください。';

export async function chat(history: ChatTurn[], message: string, env: NodeJS.ProcessEnv = process.env): Promise<{ text: string; model: string }> {
  const messages = [...history, { role: 'user' as const, content: message }];
  if (env.ANTHROPIC_API_KEY) {
    const model = env.ANTHROPIC_MODEL || 'claude-sonnet-4-5';
    const res = await fetch('https://api.anthropic.com/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': env.ANTHROPIC_API_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 1024, system: SYSTEM, messages }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`provider status ${res.status}`);
    const j = (await res.json()) as { content?: { type: string; text?: string }[] };
    return { text: (j.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join(''), model };
  }
  if (env.OPENAI_API_KEY) {
    const model = env.OPENAI_MODEL || 'gpt-4o-mini';
    const res = await fetch('https://api.openai.com/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.OPENAI_API_KEY}` },
      body: JSON.stringify({ model, messages: [{ role: 'system', content: SYSTEM }, ...messages] }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`provider status ${res.status}`);
    const j = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    return { text: j.choices?.[0]?.message?.content ?? '', model };
  }
  throw new Error('no_key');
}

export function searchConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.BRAVE_SEARCH_KEY);
}

export async function searchWeb(q: string, env: NodeJS.ProcessEnv = process.env): Promise<{ title: string; url: string; snippet: string }[]> {
  const res = await fetch(`https://api.search.brave.com/res/v1/web/search?${new URLSearchParams({ q, count: '8', country: 'jp' })}`, {
    headers: { accept: 'application/json', 'x-subscription-token': String(env.BRAVE_SEARCH_KEY) },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`search status ${res.status}`);
  const j = (await res.json()) as { web?: { results?: { title?: string; url?: string; description?: string }[] } };
  return (j.web?.results ?? []).map((r) => ({ title: r.title ?? '', url: r.url ?? '', snippet: (r.description ?? '').replace(/<[^>]+>/g, '') }));
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake provider answers the next requests. */
export type FakeMode = 'ok' | 'server-error' | 'unauthorized' | 'hang' | 'cut-off';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeProvider {
  /** Base address to hand to the SDK. */
  baseURL: string;
  seen: SeenRequest[];
  mode: FakeMode;
  /** Text pieces of the streamed reply. */
  pieces: string[];
  close(): Promise<void>;
}

type Writer = (res: ServerResponse, pieces: string[], cut: boolean) => void;

/** Anthropic Messages API, streamed: message_start, one text block of deltas, message_delta, message_stop. */
const anthropicStream: Writer = (res, pieces, cut) => {
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send('message_start', {
    type: 'message_start',
    message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model: 'claude-fake', stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
  });
  send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  for (const [i, text] of pieces.entries()) {
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    // The provider gives up mid-reply (as the real API does when overloaded): an error event ends the stream.
    if (cut && i === 0) return void res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`);
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: pieces.length } });
  send('message_stop', { type: 'message_stop' });
  res.end();
};

/** OpenAI Chat Completions, streamed: `data:` chunks with choice deltas, then `data: [DONE]`. */
const openaiStream: Writer = (res, pieces, cut) => {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  chunk({ role: 'assistant', content: '' }, null);
  for (const [i, content] of pieces.entries()) {
    chunk({ content }, null);
    if (cut && i === 0) return void res.end(`data: ${JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error', param: null, code: null } })}\n\n`);
  }
  chunk({}, 'stop');
  res.write('data: [DONE]\n\n');
  res.end();
};

const errorBody = {
  anthropic: (type: string, message: string) => ({ type: 'error', error: { type, message } }),
  openai: (type: string, message: string) => ({ error: { message, type, param: null, code: null } }),
};

/**
 * A local server speaking one provider's streaming chat API (the path the official SDK calls), so the
 * engines are exercised end to end without reaching the real provider.
 */
export async function startFakeProvider(kind: 'anthropic' | 'openai'): Promise<FakeProvider> {
  const path = kind === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
  const write = kind === 'anthropic' ? anthropicStream : openaiStream;
  const fake: Omit<FakeProvider, 'baseURL' | 'close'> = { seen: [], mode: 'ok', pieces: ['Hello', ' from', ' the model.'] };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = {};
      }
      fake.seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || req.url !== path) return json(404, errorBody[kind]('not_found_error', `no route ${req.url}`));
      if (fake.mode === 'hang') return; // never answers: the engine's deadline must end the turn
      if (fake.mode === 'unauthorized') return json(401, errorBody[kind]('authentication_error', 'invalid x-api-key'));
      if (fake.mode === 'server-error') return json(500, errorBody[kind]('api_error', 'Internal server error'));
      write(res, fake.pieces, fake.mode === 'cut-off');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const p = fake as FakeProvider;
  p.baseURL = kind === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
  p.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return p;
}

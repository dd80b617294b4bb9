import { SECRET_HEADER } from './window';

export interface ServerResponse {
  status: number;
  /** Parsed JSON body, or null when the body is not JSON. */
  body: Record<string, unknown> | null;
  contentType: string;
  bytes: Uint8Array;
}

export interface ServerClient {
  readonly url: string;
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ServerResponse>;
}

/** The main process talking to its own embedded server, with the launch secret. */
export function createServerClient(url: string, secret: string, fetchImpl: typeof fetch = fetch): ServerClient {
  return {
    url,
    async request(method, path, body) {
      if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not an app path: ${path}`);
      const headers: Record<string, string> = { [SECRET_HEADER]: secret, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetchImpl(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const contentType = res.headers.get('content-type') ?? '';
      let parsed: Record<string, unknown> | null = null;
      if (contentType.includes('json')) {
        try {
          const v: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
          parsed = v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
        } catch {
          parsed = null;
        }
      }
      return { status: res.status, body: parsed, contentType, bytes };
    },
  };
}

/** A Japanese reason from a failed server answer. */
export function serverReason(res: ServerResponse): string {
  const b = res.body ?? {};
  const msg = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : '';
  return msg || `サーバーエラー（HTTP ${res.status}）`;
}

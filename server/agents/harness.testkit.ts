import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentsApp, type AgentsAppOptions } from './app';
import type { AgentsConfig } from './config';
import { testAgentsConfig } from './config.testkit';
import type { AgentsContext } from './context';
import type { AgentRoute } from './http';
import type { Mail } from './accounts/mailer';
import { createTestDatabase, testStore } from './store.testkit';

/** Parsed JSON as a test walks it (any property path); values are checked with expect(). */
export interface J {
  readonly [k: string]: J;
  readonly [i: number]: J;
}

/** A JSON value read as an array (lists in responses). */
export const arr = (j: J): J[] => j as unknown as J[];
export const str = (j: J): string => j as unknown as string;

export interface Res<T = J> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A caller with an optional Bearer token. */
export class Api {
  constructor(
    readonly base: string,
    public token: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {}

  async request<T = J>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
    const h: Record<string, string> = { ...this.headers, ...headers };
    if (this.token) h.authorization ??= `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get<T = J>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = J>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  patch<T = J>(path: string, body: unknown = {}) {
    return this.request<T>('PATCH', path, body);
  }
  put<T = J>(path: string, body: unknown = {}) {
    return this.request<T>('PUT', path, body);
  }
  del<T = J>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

export interface AgentsTestServer {
  base: string;
  ctx: AgentsContext;
  dir: string;
  /** Every route the app mounted (the OpenAPI coverage test walks them). */
  routes: readonly AgentRoute[];
  api(token?: string | null, headers?: Record<string, string>): Api;
  /** A new account (own workspace) signed in by Bearer token. */
  signup(email?: string): Promise<Api & { email: string }>;
  /** Every mail the server sent, in order (also delivered to the configured mailer). */
  mails: Mail[];
  /** The token of the last link of this kind (`/invite/<token>`, `verify-email?token=`) mailed to the address. */
  mailedToken(email: string, kind: 'invite' | 'verify'): string;
  /** A new account for an AGENTS_ADMIN_EMAILS address that has verified it through the mailed link. */
  operator(email: string): Promise<Api & { email: string }>;
  /** `owner` invites a new address with `role`; it registers with the mailed invitation token. */
  join(owner: Api, role?: 'member' | 'viewer', email?: string): Promise<Api & { email: string }>;
  /** A new account with one agent. */
  withAgent(name?: string): Promise<{ api: Api; agentId: string; publicId: string }>;
  close(): Promise<void>;
}

let seq = 0;

export async function startAgentsServer(over: Partial<AgentsConfig> = {}, opts: Omit<AgentsAppOptions, 'config'> = {}): Promise<AgentsTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-test-'));
  const pg = testStore() === 'pg' && over.databaseUrl === undefined ? await createTestDatabase() : null;
  const { app, ctx, close, routes } = await createAgentsApp({ config: testAgentsConfig(dir, { trustProxy: 1, databaseUrl: pg?.url ?? null, ...over }), log: () => {}, ...opts });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const mails: Mail[] = [];
  const delivered = ctx.mailer;
  ctx.mailer = {
    send: async (m) => {
      mails.push(m);
      await delivered.send(m);
    },
  };
  const register = async (body: Record<string, unknown>) => {
    const n = ++seq;
    const r = await new Api(base, null, { 'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}` }).post('/api/auth/register', { password: 'secret-pass', name: 'Tester', ...body });
    if (r.status !== 200) throw new Error(`signup failed: ${r.status} ${r.text}`);
    return Object.assign(new Api(base, str(r.body.token)), { email: String(body.email) });
  };
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const t: AgentsTestServer = {
    base,
    ctx,
    dir,
    routes,
    api: (token = null, headers = {}) => new Api(base, token, headers),
    mails,
    async signup(email) {
      // Each simulated account signs up from its own address, so the per-IP auth limit is not shared across tests.
      return register({ email: email ?? `user${seq + 1}-${Date.now()}@example.com` });
    },
    mailedToken(email, kind) {
      const re = kind === 'invite' ? /\/invite\/([A-Za-z0-9_%-]+)/ : /verify-email\?token=([A-Za-z0-9_%-]+)/;
      const found = mails.filter((m) => m.to === email).map((m) => re.exec(m.text)?.[1]).filter((x): x is string => !!x);
      if (found.length === 0) throw new Error(`no ${kind} mail to ${email}`);
      return decodeURIComponent(found[found.length - 1]);
    },
    async operator(email) {
      const api = await t.signup(email);
      const v = await api.post('/api/auth/verify', { token: t.mailedToken(email, 'verify') });
      if (v.status !== 200) throw new Error(`verify failed: ${v.status} ${v.text}`);
      return api;
    },
    async join(owner, role = 'member', email) {
      const e = email ?? `mate${seq + 1}-${Date.now()}@example.com`;
      const inv = await owner.post('/api/workspace/members', { email: e, role });
      if (inv.status !== 200) throw new Error(`invite failed: ${inv.status} ${inv.text}`);
      return register({ email: e, invite: t.mailedToken(e, 'invite') });
    },
    async withAgent(name = 'Helper') {
      const api = await t.signup();
      const r = await api.post('/api/agents', { name });
      return { api, agentId: str(r.body.agent.id), publicId: str(r.body.agent.public_id) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

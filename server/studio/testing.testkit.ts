import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioApp } from './app';
import { readStudioConfig, type StudioConfig } from './config';
import type { StudioContext } from './context';
import { sql } from 'kysely';
import { openStudioDb, type StudioDatabase } from './db';
import { createTestSchema } from '../core/db/postgres.testkit';
import type { Platform } from './platform/platform';
import type { Mail } from '../core/mail/mailer';
import type { OutboundPolicy } from '../core/security/ssrf';

/**
 * Which store the studio suites run on: SQLite by default, PostgreSQL when the vitest project sets
 * STUDIO_TEST_STORE=pg (each test studio on a fresh schema of its own, dropped when it closes).
 */
export const testStore = (): 'sqlite' | 'pg' => (process.env.STUDIO_TEST_STORE === 'pg' ? 'pg' : 'sqlite');

/** A migrated store for one test studio: SQLite in its data folder, or a fresh PostgreSQL schema. */
async function openTestStore(dataDir: string): Promise<{ database: StudioDatabase; url: string | null; drop: () => Promise<void> }> {
  const common = { file: join(dataDir, 'studio.db'), statementTimeoutMs: 15_000, lockTimeoutMs: 5_000 };
  if (testStore() === 'sqlite') return { database: await openStudioDb(common), url: null, drop: async () => {} };
  const schema = await createTestSchema('studio');
  return { database: await openStudioDb({ ...common, url: schema.url, poolMax: 4 }), url: schema.url, drop: schema.drop };
}

/** `?` placeholders bound in order, on either store (tests look at and arrange rows with it). */
function rawSql<T>(text: string, params: unknown[]) {
  const parts = text.split('?');
  if (parts.length - 1 !== params.length) throw new Error(`${parts.length - 1} placeholders, ${params.length} values: ${text}`);
  const strings = Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray;
  return sql<T>(strings, ...params);
}

export interface TestStudio {
  url: string;
  ctx: StudioContext;
  /** Rows of a query on the studio's store (`?` placeholders). */
  all: <T = Record<string, unknown>>(text: string, ...params: unknown[]) => Promise<T[]>;
  /** The first row, or undefined. */
  get: <T = Record<string, unknown>>(text: string, ...params: unknown[]) => Promise<T | undefined>;
  /** A statement for its effect. */
  run: (text: string, ...params: unknown[]) => Promise<void>;
  close: () => Promise<void>;
  /** JSON request; `auth` is a session token, an API key or a header map. */
  call: <T = ApiBody>(method: string, path: string, opts?: CallOptions) => Promise<{ status: number; body: T & ApiBody }>;
  register: (email: string, workspace?: string) => Promise<{ token: string; ws: number; uid: number }>;
  apiKey: (ownerToken: string, name?: string) => Promise<string>;
  grant: (ws: number, amount: number) => Promise<number>;
  /** Every mail the studio sent, in order. */
  mails: Mail[];
  /** The token of the last invitation link (`/invite/<token>`) mailed to the address. */
  inviteToken: (email: string) => string;
  /**
   * The owner invites `email` with `role` and the address takes the mailed link: a registered account
   * (`member`) accepts it signed in, else a new account registers with it. Answers a session in the workspace.
   */
  addMember: (ownerToken: string, email: string, role: 'editor' | 'viewer' | 'client', member?: { token: string }) => Promise<{ token: string; ws: number }>;
}

export interface CallOptions {
  auth?: string;
  body?: unknown;
  headers?: Record<string, string>;
}
/** Every answer carries the envelope; routes add their fields (tests name them with the type argument). */
export interface ApiBody {
  ok?: boolean;
  error?: string;
  message?: string;
  [k: string]: unknown;
}

export const ADMIN = 'test-admin-secret';
export const CRON = 'test-cron-secret';

/** A studio on a free port over a fresh data folder (the test's own). */
export async function startStudio(overrides: Partial<StudioConfig> = {}, platform?: Platform, allowInternal?: OutboundPolicy['allowInternal']): Promise<TestStudio> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-test-'));
  const config: StudioConfig = {
    ...readStudioConfig({ NODE_ENV: 'test' }),
    port: 0, dataDir, adminSecret: ADMIN, cronSecret: CRON, localPlatformMs: 200, log: false, ...overrides,
  };
  const mails: Mail[] = [];
  const store = await openTestStore(dataDir);
  const { app, ctx } = await createStudioApp({ config, database: store.database, platform, mailer: { send: async (m) => void mails.push(m) }, allowInternal });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx.publicUrl = url;

  const call = async <T = ApiBody>(method: string, path: string, opts: CallOptions = {}): Promise<{ status: number; body: T & ApiBody }> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.auth) headers.authorization = `Bearer ${opts.auth}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let body: unknown = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { text };
    }
    return { status: res.status, body: body as T & ApiBody };
  };
  const register: TestStudio['register'] = async (email, workspace) => {
    const r = await call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', { body: { email, password: 'correct horse', workspace } });
    if (r.status !== 200) throw new Error(`register ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    const me = await call<{ user: { id: number } }>('GET', '/api/me', { auth: r.body.token });
    return { token: r.body.token, ws: r.body.workspace_id, uid: me.body.user.id };
  };
  const apiKey: TestStudio['apiKey'] = async (ownerToken, name = 'test') => {
    const r = await call<{ key: string }>('POST', '/api/settings/api-keys', { auth: ownerToken, body: { name } });
    if (r.status !== 200) throw new Error(`api key: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.key;
  };
  const grant: TestStudio['grant'] = async (ws, amount) => {
    const r = await call<{ balance: number }>('POST', '/api/admin/credits', { headers: { 'x-admin-secret': ADMIN }, body: { workspace_id: ws, amount } });
    if (r.status !== 200) throw new Error(`grant: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.balance;
  };
  const inviteToken: TestStudio['inviteToken'] = (email) => {
    const found = mails.filter((m) => m.to === email).map((m) => /\/invite\/([A-Za-z0-9_%-]+)/.exec(m.text)?.[1]).filter((x): x is string => !!x);
    if (found.length === 0) throw new Error(`no invitation mail to ${email}`);
    return decodeURIComponent(found[found.length - 1]);
  };
  const addMember: TestStudio['addMember'] = async (ownerToken, email, role, member) => {
    const inv = await call('POST', '/api/workspace/members', { auth: ownerToken, body: { email, role } });
    if (inv.status !== 200) throw new Error(`invite ${email}: ${inv.status} ${JSON.stringify(inv.body)}`);
    const r = member
      ? await call<{ token: string; workspace_id: number }>('POST', '/api/workspace/invitations/accept', { auth: member.token, body: { token: inviteToken(email) } })
      : await call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', { body: { email, password: 'correct horse', invite: inviteToken(email) } });
    if (r.status !== 200) throw new Error(`join ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    return { token: r.body.token, ws: r.body.workspace_id };
  };
  const all: TestStudio['all'] = async <T,>(text: string, ...params: unknown[]) => (await rawSql<T>(text, params).execute(ctx.db)).rows;
  const get: TestStudio['get'] = async <T,>(text: string, ...params: unknown[]) => (await all<T>(text, ...params))[0];
  const run: TestStudio['run'] = async (text, ...params) => void (await rawSql(text, params).execute(ctx.db));
  return {
    url, ctx, call, register, apiKey, grant, mails, inviteToken, addMember, all, get, run,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      ctx.platform.close?.();
      await ctx.database.close();
      await store.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

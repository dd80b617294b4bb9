import { sql } from 'kysely';
import { dialectOf } from '../../core/db/database';
import { str, type Api, type AgentsTestServer } from '../harness.testkit';

export interface Member {
  api: Api;
  userId: string;
}

/** The signed-in account's user id and active workspace. */
export async function whoami(api: Api): Promise<{ userId: string; ws: string }> {
  const me = await api.get('/api/auth/me');
  if (me.status !== 200) throw new Error(`me failed: ${me.status} ${me.text}`);
  return { userId: str(me.body.user.id), ws: str(me.body.workspace.id) };
}

/** A new account seated in the owner's workspace with this role, acting there (as an accepted invitation leaves it). */
export async function joinAs(t: AgentsTestServer, owner: Api, role: 'member' | 'viewer'): Promise<Member> {
  const { ws } = await whoami(owner);
  const api = await t.signup();
  const { userId } = await whoami(api);
  await t.ctx.db.insertInto('members').values({ workspace_id: ws, user_id: userId, role, created_at: Date.now() }).execute();
  await t.ctx.db.updateTable('users').set({ active_workspace_id: ws }).where('id', '=', userId).execute();
  return { api, userId };
}

/** A new account made a platform operator (as an operator's promotion leaves it). */
export async function operator(t: AgentsTestServer): Promise<Member> {
  const api = await t.signup();
  const { userId } = await whoami(api);
  await t.ctx.db.updateTable('users').set({ platform_role: 'admin' }).where('id', '=', userId).execute();
  return { api, userId };
}

/** Every row of every table, as text: two equal snapshots mean nothing was stored or changed. */
export async function snapshot(t: AgentsTestServer): Promise<string> {
  const db = t.ctx.db;
  const tables = (
    dialectOf(db) === 'postgres'
      ? await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db)
      : await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`.execute(db)
  ).rows;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db)).rows;
    const lines = rows.map((r) => `${name}: ${JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v))}`).sort();
    parts.push(`${name}:`, ...lines);
  }
  return parts.join('\n');
}

/** The rows of `after` that `before` does not hold, and the rows gone from it, each named by its table (empty: nothing changed). */
export function changedRows(before: string, after: string): string[] {
  const count = new Map<string, number>();
  for (const l of before.split('\n')) count.set(l, (count.get(l) ?? 0) + 1);
  for (const l of after.split('\n')) count.set(l, (count.get(l) ?? 0) - 1);
  const out: string[] = [];
  for (const [l, n] of count) for (let i = 0; i < Math.abs(n); i++) out.push(`${n < 0 ? '+' : '-'} ${l.slice(0, 300)}`);
  return out;
}

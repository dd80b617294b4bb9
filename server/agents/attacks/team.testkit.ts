import { dialectOf } from '../db';
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
  t.ctx.legacyDb.prepare('INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(ws, userId, role, Date.now());
  t.ctx.legacyDb.prepare('UPDATE users SET active_workspace_id = ? WHERE id = ?').run(ws, userId);
  return { api, userId };
}

/** A new account made a platform operator (as an operator's promotion leaves it). */
export async function operator(t: AgentsTestServer): Promise<Member> {
  const api = await t.signup();
  const { userId } = await whoami(api);
  t.ctx.legacyDb.prepare("UPDATE users SET platform_role = 'admin' WHERE id = ?").run(userId);
  return { api, userId };
}

/** Every row of every table, as text: two equal snapshots mean nothing was stored or changed. */
export function snapshot(t: AgentsTestServer): string {
  const db = t.ctx.legacyDb;
  const tables = (
    dialectOf(db) === 'postgres'
      ? db.prepare("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name").all()
      : db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all()
  ) as { name: string }[];
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
    const lines = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v))).sort();
    parts.push(`${name}:${lines.join('\n')}`);
  }
  return parts.join('\n---\n');
}

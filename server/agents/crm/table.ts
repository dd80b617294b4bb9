import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';

export type Row = Record<string, unknown> & { id: string; workspace_id: string };

/** Plain workspace-scoped CRUD over one table (contacts, leads, attributes, builder widgets). */
export class WorkspaceTable<I extends Record<string, unknown>> {
  constructor(
    readonly table: string,
    readonly prefix: string,
    readonly notFound: string,
    /** API field -> column. */
    readonly columns: Record<keyof I & string, string>,
    readonly timestamps: { updated: boolean } = { updated: true },
  ) {}

  get(ctx: AgentsContext, ws: string, id: string): Row {
    const r = ctx.legacyDb.prepare(`SELECT * FROM ${this.table} WHERE id = ? AND workspace_id = ?`).get(id, ws) as Row | undefined;
    if (!r) throw notFound(this.notFound);
    return r;
  }

  private values(input: Partial<I>): [string[], unknown[]] {
    const cols: string[] = [];
    const vals: unknown[] = [];
    for (const [k, col] of Object.entries(this.columns) as [string, string][]) {
      const v = input[k as keyof I];
      if (v === undefined) continue;
      cols.push(col);
      vals.push(typeof v === 'object' && v !== null ? JSON.stringify(v) : typeof v === 'boolean' ? Number(v) : v);
    }
    return [cols, vals];
  }

  create(ctx: AgentsContext, ws: string, agentId: string | null, input: Partial<I>): Row {
    const id = newId(this.prefix);
    const now = Date.now();
    const [cols, vals] = this.values(input);
    const extra = this.timestamps.updated ? ['created_at', 'updated_at'] : ['created_at'];
    const all = ['id', 'workspace_id', 'agent_id', ...cols, ...extra];
    ctx.legacyDb.prepare(`INSERT INTO ${this.table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`).run(id, ws, agentId, ...vals, ...extra.map(() => now));
    return this.get(ctx, ws, id);
  }

  update(ctx: AgentsContext, ws: string, id: string, input: Partial<I>): Row {
    this.get(ctx, ws, id);
    const [cols, vals] = this.values(input);
    const sets = cols.map((c) => `${c} = ?`);
    if (this.timestamps.updated) sets.push('updated_at = ?'), vals.push(Date.now());
    if (sets.length) ctx.legacyDb.prepare(`UPDATE ${this.table} SET ${sets.join(', ')} WHERE id = ? AND workspace_id = ?`).run(...vals, id, ws);
    return this.get(ctx, ws, id);
  }

  remove(ctx: AgentsContext, ws: string, id: string): void {
    this.get(ctx, ws, id);
    ctx.legacyDb.prepare(`DELETE FROM ${this.table} WHERE id = ? AND workspace_id = ?`).run(id, ws);
  }

  /** Paginated search: `search` over the named text columns, sort by an allowed column. */
  page(ctx: AgentsContext, ws: string, q: { agentId?: string; search?: string; filters?: Record<string, string>; searchIn: string[]; sort: string; dir: 'asc' | 'desc'; limit: number; page: number }) {
    const where = ['workspace_id = ?'];
    const args: unknown[] = [ws];
    if (q.agentId) where.push('agent_id = ?'), args.push(q.agentId);
    for (const [col, v] of Object.entries(q.filters ?? {})) where.push(`${col} = ?`), args.push(v);
    if (q.search) {
      const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(${q.searchIn.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      args.push(...q.searchIn.map(() => like));
    }
    const w = where.join(' AND ');
    const total = (ctx.legacyDb.prepare(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${w}`).get(...args) as { n: number }).n;
    const rows = ctx.legacyDb
      .prepare(`SELECT * FROM ${this.table} WHERE ${w} ORDER BY ${q.sort} ${q.dir === 'asc' ? 'ASC' : 'DESC'}, id LIMIT ? OFFSET ?`)
      .all(...args, q.limit, (q.page - 1) * q.limit) as Row[];
    return { rows, total, page: q.page, limit: q.limit, pages: Math.max(1, Math.ceil(total / q.limit)) };
  }

  all(ctx: AgentsContext, ws: string, agentId: string | undefined, limit: number): Row[] {
    if (agentId) return ctx.legacyDb.prepare(`SELECT * FROM ${this.table} WHERE workspace_id = ? AND agent_id = ? ORDER BY created_at DESC, id LIMIT ?`).all(ws, agentId, limit) as Row[];
    return ctx.legacyDb.prepare(`SELECT * FROM ${this.table} WHERE workspace_id = ? ORDER BY created_at DESC, id LIMIT ?`).all(ws, limit) as Row[];
  }
}

export const iso = (t: unknown) => (typeof t === 'number' ? new Date(t).toISOString() : null);

/** Common list query: search, sort, dir, limit (1..100, default 25), page (from 1). */
export function pageQuery<S extends string>(q: { sort?: string; dir?: string; limit?: number; page?: number }, sorts: readonly S[], fallback: S) {
  return {
    sort: (sorts as readonly string[]).includes(q.sort ?? '') ? (q.sort as S) : fallback,
    dir: q.dir === 'asc' ? ('asc' as const) : ('desc' as const),
    limit: Math.min(100, Math.max(1, q.limit ?? 25)),
    page: Math.max(1, q.page ?? 1),
  };
}

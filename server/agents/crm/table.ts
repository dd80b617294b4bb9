import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from '../../core/db/database';
import type { AgentsDb } from '../schema';

export const iso = (t: number | null | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : null);

/** Common list query: search, sort, dir, limit (1..100, default 25), page (from 1). */
export function pageQuery<S extends string>(q: { sort?: string; dir?: string; limit?: number; page?: number }, sorts: readonly S[], fallback: S) {
  return {
    sort: (sorts as readonly string[]).includes(q.sort ?? '') ? (q.sort as S) : fallback,
    dir: q.dir === 'asc' ? ('asc' as const) : ('desc' as const),
    limit: Math.min(100, Math.max(1, q.limit ?? 25)),
    page: Math.max(1, q.page ?? 1),
  };
}

export interface PageOptions<S extends string> {
  agentId?: string;
  search?: string;
  sort: S;
  dir: 'asc' | 'desc';
  limit: number;
  page: number;
}

export interface Page<R> {
  rows: R[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

export const pageOf = <R>(rows: R[], total: number, q: { page: number; limit: number }): Page<R> => ({
  rows, total, page: q.page, limit: q.limit, pages: Math.max(1, Math.ceil(total / q.limit)),
});

/**
 * `column` contains `needle` as plain text, case-insensitively as SQLite's LIKE matches (ILIKE on PostgreSQL);
 * `%`, `_` and `\` in the needle match themselves.
 */
export function contains(db: AgentsDb, column: string, needle: string): RawBuilder<boolean> {
  const like = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return dialectOf(db) === 'postgres' ? sql<boolean>`${sql.ref(column)} ILIKE ${like} ESCAPE '\\'` : sql<boolean>`${sql.ref(column)} LIKE ${like} ESCAPE '\\'`;
}

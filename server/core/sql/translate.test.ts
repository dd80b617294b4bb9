import { describe, expect, it } from 'vitest';
import { toPostgres } from './translate';

describe('portable SQL to PostgreSQL', () => {
  it('numbers ? placeholders in order, leaving quoted text and comments alone', () => {
    expect(toPostgres("SELECT 'what?' AS q, \"a?b\" FROM t WHERE a = ? AND b IN (?, ?) -- why?\nLIMIT ?")).toBe("SELECT 'what?' AS q, \"a?b\" FROM t WHERE a = $1 AND b IN ($2, $3) -- why?\nLIMIT $4");
  });

  it("matches LIKE case-insensitively as SQLite does, keeping ESCAPE and doubled quotes", () => {
    expect(toPostgres("SELECT 1 FROM t WHERE lower(x) LIKE ? OR y like ? ESCAPE '\\' OR z = 'it''s LIKE ?'")).toBe("SELECT 1 FROM t WHERE lower(x) ILIKE $1 OR y ILIKE $2 ESCAPE '\\' OR z = 'it''s LIKE ?'");
    expect(toPostgres('SELECT likes, unlike FROM t')).toBe('SELECT likes, unlike FROM t');
  });
});

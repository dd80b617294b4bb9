/**
 * Portable SQL (as written for SQLite) to PostgreSQL: `?` placeholders become `$1..$n` and LIKE
 * matches case-insensitively (ILIKE) as SQLite's LIKE does. Quoted strings and identifiers are left alone.
 */
export function toPostgres(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '?') {
      out += `$${++n}`;
      i++;
      continue;
    }
    if ((c === 'L' || c === 'l') && /^like\s/i.test(sql.slice(i, i + 5)) && (i === 0 || /\s/.test(sql[i - 1] as string))) {
      out += 'ILIKE';
      i += 4;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}
